/**
 * Runs every `*.bench.ts` under bench/ one after another, each in its own process, with the
 * node options the server runs with (`npm run serve`), as benches run Encore in-process.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveNodeOptions } from './serve-options.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(here, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.bench.ts') && !file.includes('node_modules'))
  .filter((file) => !only || file.includes(only))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const result = spawnSync(process.execPath, [...serveNodeOptions, '--conditions=source', '--import', 'tsx', path.join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
