import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each module's tables sit in its own `*.schema.ts`; the migrations stay one ordered history.
  schema: ['./src/features/*/*.schema.ts', './src/platform/**/*.schema.ts'],
  out: './drizzle',
});
