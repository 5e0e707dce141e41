import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The web app's features (web/src/features/*). */
const webFeatures = readdirSync(new URL('./web/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

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
        { patterns: [{ group: ['**/platform/http/**', 'fastify', 'fastify/*', '@fastify/*'], message: 'Services and platform components do not speak HTTP: throw an AppError of platform/errors and let the routes map results.' }] },
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
              group: webFeatures.filter((other) => other !== feature).map((other) => `**/features/${other}/**`).concat(webFeatures.filter((other) => other !== feature).map((other) => `../${other}/**`)),
              message: 'A web feature does not import another: move what is shared out of features/, or compose the pieces in web/src/pages.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['bench/**/*.ts', 'e2e/**/*.ts', '.ci/**/*.{js,mjs}'],
    rules: { 'no-console': 'off' },
  },
);
