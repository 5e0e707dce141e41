import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Files of public/ that belong to the shell (copied by Vite, not part of the bundle). */
const PUBLIC_SHELL = ['/favicon.svg', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png'];
/** What the shell leaves out: source maps, compressed copies, and files too large to fetch at install (the clip editor's WebAssembly). */
const SKIP = /\.(map|br|gz)$/;
const MAX_SHELL_FILE_BYTES = 1_500_000;

/**
 * Writes `sw.js` (web/build/service-worker.js with the app shell's files and a version filled in)
 * into the build, so each release's worker differs byte for byte and replaces the last one.
 */
export function serviceWorker(): Plugin {
  return {
    name: 'encore-service-worker',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const files = Object.values(bundle)
        .filter((item) => !SKIP.test(item.fileName))
        .filter(
          (item) =>
            (item.type === 'chunk' ? item.code.length : typeof item.source === 'string' ? item.source.length : item.source.byteLength) <= MAX_SHELL_FILE_BYTES,
        )
        .map((item) => `/${item.fileName}`)
        .sort();
      const shell = [...new Set([...files, ...PUBLIC_SHELL])];
      const version = createHash('sha256').update(shell.join('\n')).digest('hex').slice(0, 16);
      const template = await readFile(path.join(here, 'service-worker.js'), 'utf8');
      const source = template
        .replace(/^\/\* global .*\*\/\n/, '')
        .replace("const VERSION = '__ENCORE_SW_VERSION__';", `const VERSION = '${version}';`)
        .replace('const SHELL = __ENCORE_SW_SHELL__;', `const SHELL = ${JSON.stringify(shell)};`);
      if (source.includes('__ENCORE_SW_')) throw new Error('service-worker.js: a placeholder was not filled in');
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}
