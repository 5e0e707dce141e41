import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The folders under `dir` (relative to the repository root). */
const foldersOf = (dir) =>
  readdirSync(new URL(`./${dir}/`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** The web app's features (web/src/features/*). */
const webFeatures = foldersOf('web/src/features');

/** The server's modules (server/src/features/*): each folder is one module. */
const serverModules = foldersOf('server/src/features');

// import-x/no-restricted-paths matches its `except` globs against absolute paths, unresolved.
const fromRoot = (glob) => `${root}${glob}`;
const inModules = (...fileGlobs) => fileGlobs.map((glob) => fromRoot(`server/src/features/*/${glob}`));

const modulePortMessage = (name) =>
  `Module ${name} reaches another module only through its published port (<name>.port.ts); a *.module.ts may also name another's manifest. A foreign key names another's table by keyOf() (platform/db/table-key.ts).`;
const platformMessage =
  'platform/ and modules/ serve every module and know none: nothing of server/src/features. What gathers every module is assembled where the module list lives (server/src/features/modules.ts) and handed down.';
const outsideMessage = "Outside the modules, nothing takes a module's repository or tables: go through its port or its manifest.";

/**
 * The server's zones, for the file kinds the block's `files` name. `acrossModules` is what a
 * module's file may take of another module; platform/ takes nothing of them, with no exception.
 */
const serverZones = ({ acrossModules }) => [
  ...serverModules.map((name) => ({
    target: `server/src/features/${name}`,
    from: serverModules.filter((other) => other !== name).map((other) => `server/src/features/${other}/**/*`),
    except: acrossModules,
    message: modulePortMessage(name),
  })),
  { target: ['server/src/platform', 'server/src/modules'], from: ['server/src/features/**/*'], message: platformMessage },
  {
    target: ['server/src/*.ts', 'server/src/features/*.ts', 'server/scripts'],
    from: ['server/src/features/**/*.repository.ts', 'server/src/features/**/*.schema.ts'],
    message: outsideMessage,
  },
];

const serverTests = ['server/test/**', '**/*.test.ts'];
const restrictedPaths = (options) => ({ 'import-x/no-restricted-paths': ['error', { basePath: root, zones: serverZones(options) }] });

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/drizzle/meta/**', 'e2e/test-results/**', 'e2e/playwright-report/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Services, repositories, jobs and the platform's components speak the domain, not HTTP:
    // they throw the errors of platform/errors and return records; routes do the translating.
    files: ['server/src/features/**/*.ts', 'server/src/platform/**/*.ts'],
    ignores: ['server/src/platform/http/**', '**/*.routes.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/platform/http/**', 'fastify', 'fastify/*', '@fastify/*'],
              message: 'Services and platform components do not speak HTTP: throw an AppError of platform/errors and let the routes map results.',
            },
          ],
        },
      ],
    },
  },
  // Web: no feature imports another (ISSUE 10). What several share lives outside features/
  // (components/, lib/, player/); pages that bring features together are composed in pages/.
  ...webFeatures.map((feature) => ({
    files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: webFeatures
                .filter((other) => other !== feature)
                .map((other) => `**/features/${other}/**`)
                .concat(webFeatures.filter((other) => other !== feature).map((other) => `../${other}/**`)),
              message: 'A web feature does not import another: move what is shared out of features/, or compose the pieces in web/src/pages.',
            },
          ],
        },
      ],
    },
  })),
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      // Server and common import './x.js' for './x.ts'; web imports without an extension.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
          conditionNames: ['source', 'types', 'import', 'default'],
        }),
      ],
    },
  },
  // Server modules (ISSUE 26): a module takes another's port only, so what it offers is one
  // file to read and keep stable; tables stay with their owner.
  {
    files: ['server/src/**/*.ts', 'server/scripts/**/*.ts'],
    ignores: serverTests,
    rules: restrictedPaths({ acrossModules: inModules('*.port.ts') }),
  },
  {
    // Issue 37: a stream that fails with no 'error' listener ends the process (a client resetting
    // its upload did). Readable#pipe listens to neither end's errors; pipeline() listens to all.
    files: ['server/src/**/*.ts'],
    ignores: serverTests,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='pipe']",
          message:
            "Use pipeline() from 'node:stream/promises' (or 'node:stream'): .pipe() leaves errors unheard, and one unheard 'error' event ends the server. Every stream needs an 'error' listener from its creation.",
        },
      ],
    },
  },
  {
    // A manifest names what it requires by the providers' ports and may name their manifests.
    files: ['server/src/features/*/*.module.ts'],
    rules: restrictedPaths({ acrossModules: inModules('*.port.ts', '*.module.ts') }),
  },
  {
    // common/ is shared by the server and the browser: it depends on neither, nor on Node.
    files: ['common/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: 'common',
              from: ['server', 'web', 'e2e', 'bench'],
              message: 'common/ is shared by the server and the web app and imports neither (nor e2e/ or bench/).',
            },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({ name, message: 'common/ runs in the browser too: no Node built-ins.' })),
          patterns: [
            { group: ['node:*'], message: 'common/ runs in the browser too: no Node built-ins.' },
            {
              group: ['@encore/server', '@encore/server/*', '@encore/web', '@encore/web/*', '@encore/e2e', '@encore/e2e/*', '@encore/bench', '@encore/bench/*'],
              message: 'common/ is shared by the server and the web app and imports neither (nor e2e/ or bench/).',
            },
          ],
        },
      ],
    },
  },
  {
    // Web: the lower floors take nothing of the features, the pages or app/. What needs every
    // feature (the message catalogues, the routes) is assembled in app/, where the list of them is.
    files: ['web/src/{lib,components,player,offline}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: ['web/src/lib', 'web/src/components', 'web/src/player', 'web/src/offline'],
              from: ['web/src/features', 'web/src/pages', 'web/src/app'],
              message: 'web/src/lib, components, player and offline take nothing of the features, pages or app/: assemble what needs them in web/src/app.',
            },
          ],
        },
      ],
    },
  },
  {
    // In a cycle of imports, the load order decides which bindings a file sees still unset at start-up.
    files: ['web/src/**/*.{ts,tsx}', 'server/src/**/*.ts', 'common/src/**/*.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['bench/**/*.ts', 'e2e/**/*.ts', '.ci/**/*.{js,mjs}'],
    rules: { 'no-console': 'off' },
  },
  // Web: an API path is never typed by hand (issue 37 item 18). Calls go through the endpoint
  // client (web/src/lib/endpoint-client.ts), which builds them from common/'s declarations.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/lib/api-client.ts', 'web/src/lib/endpoint-client.ts', '**/*.test.{ts,tsx}', 'web/src/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.name=/^(apiRequest|apiRequestWithHeaders|apiBlobRequest)$/]:matches([arguments.0.type='Literal'], [arguments.0.type='TemplateLiteral'])",
          message: 'No hand-typed API path: call the endpoint declared in common/ through callEndpoint (web/src/lib/endpoint-client.ts).',
        },
        {
          // Anywhere a path could be typed: fetch's URL, a cache key, a link, a URL handed on.
          selector: 'Literal[value=/^\\/api\\//], TemplateLiteral[quasis.0.value.raw=/^\\/api\\//]',
          message: 'No hand-typed API path: take the URL from endpointUrl (web/src/lib/endpoint-client.ts).',
        },
      ],
    },
  },
);
