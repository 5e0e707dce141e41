/**
 * The node options of `npm run serve` (what `npm start` runs after building), read from the
 * root package.json, so benches measure the server as it really runs (its young generation
 * and V8 thread pool change both speed and memory).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const scripts = (JSON.parse(readFileSync(path.resolve(here, '../package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const options = /^node\s+(.*?)\s*server\/dist\/main\.js serve$/.exec(scripts['serve'] ?? '')?.[1];
if (options === undefined) throw new Error('package.json: the serve script is not `node <options> server/dist/main.js serve`');

export const serveNodeOptions: readonly string[] = options.split(/\s+/).filter(Boolean);

/** A line for a bench that runs the server in its own process: whether it has the server's options. */
export function serveOptionsNote(): string {
  const missing = serveNodeOptions.filter((option) => !process.execArgv.includes(option));
  return missing.length === 0
    ? `node options as npm run serve: ${serveNodeOptions.join(' ')}`
    : `NOTE: run without npm run serve's node options (${missing.join(' ')}); npm run bench adds them`;
}
