/**
 * The JavaScript the landing page downloads before it can render: the entry script(s) of
 * `web/dist/index.html`, its modulepreload links, and every chunk they import statically
 * (not the `import()`ed routes), each gzipped. Prints the total next to the 170 KB budget and
 * exits non-zero when it is over. Builds nothing: run `npm run build` first.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 170;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const indexHtml = path.join(dist, 'index.html');

if (!existsSync(indexHtml)) {
  console.error(`No ${path.relative(process.cwd(), indexHtml)}: run \`npm run build\` first.`);
  process.exit(1);
}

/** Scripts and module preloads named by index.html, as paths under dist. */
function htmlScripts(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) found.push(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) found.push(match[1]!);
  return found.map((src) => path.join(dist, src.replace(/^\//, '')));
}

/**
 * Static `import … from "./x.js"`, `import "./x.js"` and `export … from "./x.js"` of a chunk;
 * `import("./x.js")` is left out: `(` cannot come between the keyword and the specifier.
 */
function staticImports(file: string, code: string): string[] {
  const pattern = /\b(?:import|export)\s*(?:[^"'`();]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  return [...code.matchAll(pattern)].map((match) => path.resolve(path.dirname(file), match[1]!));
}

const seen = new Map<string, { raw: number; gzip: number }>();
const queue = htmlScripts(readFileSync(indexHtml, 'utf8'));
while (queue.length > 0) {
  const file = queue.shift()!;
  if (seen.has(file)) continue;
  const code = readFileSync(file);
  seen.set(file, { raw: code.length, gzip: gzipSync(code, { level: 9 }).length });
  queue.push(...staticImports(file, code.toString('utf8')));
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
let total = 0;
for (const [file, size] of [...seen].sort((a, b) => b[1].gzip - a[1].gzip)) {
  total += size.gzip;
  console.log(`${path.relative(dist, file).padEnd(48)} ${kb(size.raw).padStart(8)} KB ${kb(size.gzip).padStart(7)} KB gzip`);
}
const verdict = total <= BUDGET_KB * 1024 ? 'within' : 'OVER';
console.log(`\nlanding page JavaScript: ${kb(total)} KB gzip in ${seen.size} files; budget ${BUDGET_KB} KB: ${verdict}`);
process.exit(verdict === 'within' ? 0 : 1);
