import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The lint holds the shape of the code (ISSUE 26): each probe is a source placed, unwritten, at a
 * path in the tree, and linted with the repository's own eslint.config.js as `npm run lint` does.
 */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const ZONES = 'import-x/no-restricted-paths';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

async function lintProbe(filePath: string, importLine: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const probe = [imported];\n`, { filePath: `${repoRoot}${filePath}` });
  if (!result) throw new Error(`ESLint returned no result for ${filePath}`);
  return result.messages;
}

const byRule = (messages: Linter.LintMessage[], ruleId: string) => messages.filter((message) => message.ruleId === ruleId);

describe('lint zones', () => {
  describe('server modules', () => {
    it("refuse a module importing another module's repository", async () => {
      const messages = await lintProbe('server/src/features/playlists/probe.ts', "import { imported } from '../library/library.repository.js';");
      expect(byRule(messages, ZONES)).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('Module playlists reaches another module only through its published port (<name>.port.ts)'),
        }),
      ]);
    });

    it("refuse another module's tables, internals and manifest outside a manifest", async () => {
      for (const target of ['library.schema.js', 'library.service.js', 'ingest/ingest.service.js', 'library.module.js']) {
        const messages = await lintProbe('server/src/features/playlists/nested/probe.ts', `import { imported } from '../../library/${target}';`);
        expect(byRule(messages, ZONES), target).toHaveLength(1);
      }
    });

    it("let a module import another module's port", async () => {
      const messages = await lintProbe('server/src/features/playlists/probe.ts', "import { imported } from '../library/library.port.js';");
      expect(byRule(messages, ZONES)).toEqual([]);
    });

    it("refuse another module's tables in a schema too (a foreign key names them by keyOf), and let a manifest name another's manifest", async () => {
      const schema = await lintProbe('server/src/features/playlists/probe.schema.ts', "import { imported } from '../library/library.schema.js';");
      expect(byRule(schema, ZONES)).toHaveLength(1);
      const platformSchema = await lintProbe('server/src/platform/tasks/probe.schema.ts', "import { imported } from '../../features/auth/auth.schema.js';");
      expect(byRule(platformSchema, ZONES)).toHaveLength(1);
      const manifest = await lintProbe('server/src/features/playlists/probe.module.ts', "import { imported } from '../library/library.module.js';");
      expect(byRule(manifest, ZONES)).toEqual([]);
    });

    it('keep platform/ from importing any module', async () => {
      const messages = await lintProbe('server/src/platform/probe.ts', "import { imported } from '../features/library/library.service.js';");
      expect(byRule(messages, ZONES)).toEqual([
        expect.objectContaining({ message: expect.stringContaining('platform/ and modules/ serve every module and know none') }),
      ]);
    });

    it("keep platform/db from gathering the modules' tables (what gathers every module lives where the module list does)", async () => {
      for (const filePath of ['server/src/platform/db/schema.ts', 'server/src/platform/db/probe.ts']) {
        const messages = await lintProbe(filePath, "import { imported } from '../../features/auth/auth.schema.js';");
        expect(byRule(messages, ZONES), filePath).toEqual([
          expect.objectContaining({ message: expect.stringContaining('platform/ and modules/ serve every module and know none') }),
        ]);
      }
    });

    it("keep the app's files away from a module's repository and tables", async () => {
      const messages = await lintProbe('server/src/probe.ts', "import { imported } from './features/library/library.repository.js';");
      expect(byRule(messages, ZONES)).toEqual([expect.objectContaining({ message: expect.stringContaining("nothing takes a module's repository or tables") })]);
    });
  });

  describe('common/', () => {
    it('refuses server code', async () => {
      const messages = await lintProbe('common/src/probe.ts', "import { imported } from '../../server/src/config.js';");
      expect(byRule(messages, ZONES)).toEqual([
        expect.objectContaining({ message: expect.stringContaining('common/ is shared by the server and the web app and imports neither') }),
      ]);
    });

    it('refuses the server and web packages and Node built-ins', async () => {
      for (const source of ['@encore/server/src/config.js', '@encore/web/src/main.tsx', 'node:fs', 'fs']) {
        const messages = await lintProbe('common/src/probe.ts', `import { imported } from '${source}';`);
        expect(byRule(messages, 'no-restricted-imports'), source).toHaveLength(1);
      }
    });
  });

  describe('web', () => {
    it('refuses a feature importing another', async () => {
      const messages = await lintProbe('web/src/features/library/probe.ts', "import { imported } from '../playlists/playlists.api';");
      expect(byRule(messages, 'no-restricted-imports')).toEqual([
        expect.objectContaining({ message: expect.stringContaining('A web feature does not import another') }),
      ]);
    });

    it('keeps the lower floors (lib, components, player, offline) from importing features, pages or app/', async () => {
      for (const [filePath, source] of [
        ['web/src/lib/i18n/probe.ts', '../../features/radio/radio.messages.en'],
        ['web/src/components/probe.ts', '../app/catalogue.en'],
        ['web/src/player/probe.ts', '../features/library/library.messages.en'],
      ] as const) {
        const messages = await lintProbe(filePath, `import { imported } from '${source}';`);
        expect(byRule(messages, ZONES), filePath).toEqual([
          expect.objectContaining({ message: expect.stringContaining('assemble what needs them in web/src/app') }),
        ]);
      }
    });

    it('refuses an import cycle', async () => {
      // session.store imports session-storage: the probe, at session-storage's path, closes the loop.
      const messages = await lintProbe('web/src/lib/session-storage.ts', "import { sessionStore as imported } from './session.store';");
      expect(byRule(messages, 'import-x/no-cycle')).toHaveLength(1);
    });
  });

  describe('streams (issue 37)', () => {
    it('refuse .pipe() in the server (an unheard stream error ends the process) and take pipeline()', async () => {
      const lint = async (code: string) => {
        const [result] = await eslint.lintText(`import { PassThrough } from 'node:stream';\nimport { pipeline } from 'node:stream/promises';\n${code}\n`, {
          filePath: `${repoRoot}server/src/platform/storage/probe.ts`,
        });
        return byRule(result?.messages ?? [], 'no-restricted-syntax');
      };
      expect(await lint('new PassThrough().pipe(new PassThrough());')).toEqual([
        expect.objectContaining({ message: expect.stringContaining('Use pipeline()') }),
      ]);
      expect(await lint('await pipeline(new PassThrough(), new PassThrough());')).toEqual([]);
    });
  });
});

describe('web API paths (issue 37 item 18)', () => {
  const SYNTAX = 'no-restricted-syntax';
  async function lintSource(filePath: string, source: string): Promise<Linter.LintMessage[]> {
    const [result] = await eslint.lintText(source, { filePath: `${repoRoot}${filePath}` });
    if (!result) throw new Error(`ESLint returned no result for ${filePath}`);
    return byRule(result.messages, SYNTAX);
  }
  const header =
    "import { apiRequest, apiRequestWithHeaders, apiBlobRequest } from '../lib/api-client';\nconst id = 1;\nconst options = { schema: { safeParse: () => ({ success: true as const, data: 1 }) }, fallbackMessage: 'x' };\n";

  it('refuses apiRequest (and its siblings) with a hand-typed path anywhere outside the endpoint client', async () => {
    const calls = [
      "apiRequest('/player/queue', options)",
      'apiRequest(`/files/${id}/play`, options)',
      'apiRequestWithHeaders(`/files`, options)',
      "apiBlobRequest('/files/extract-image', { fallbackMessage: 'x' })",
    ];
    for (const call of calls) {
      const messages = await lintSource('web/src/player/probe.ts', `${header}export const probe = ${call};\n`);
      expect(messages, call).toEqual([expect.objectContaining({ message: expect.stringContaining('No hand-typed API path') })]);
    }
  });

  it("refuses a hand-typed '/api/…' URL anywhere: fetch, a cache key, a URL handed on", async () => {
    for (const call of [
      "fetch('/api/player/queue')",
      'fetch(`/api/files/${id}`)',
      "caches.open('x').then((cache) => cache.delete(`/api/playlists/${id}`))",
      "['/api/files']",
    ]) {
      const messages = await lintSource('web/src/features/library/probe.ts', `const id = 1;\nexport const probe = ${call};\n`);
      expect(messages, call).toEqual([expect.objectContaining({ message: expect.stringContaining('endpointUrl') })]);
    }
  });

  it('lets the endpoint client build paths, and everyone call declared endpoints', async () => {
    expect(await lintSource('web/src/lib/endpoint-client.ts', `${header}export const probe = apiRequest(\`/files/\${id}\`, options);\n`)).toEqual([]);
    const declared =
      "import { listeningEndpoints } from '@encore/common/listening.contract';\nimport { callEndpoint, endpointUrl } from '../lib/endpoint-client';\n" +
      "export const a = callEndpoint(listeningEndpoints.getQueue, { fallbackMessage: 'x' });\nexport const b = fetch(endpointUrl(listeningEndpoints.saveQueue, {}));\n";
    expect(await lintSource('web/src/player/probe.ts', declared)).toEqual([]);
  });
});
