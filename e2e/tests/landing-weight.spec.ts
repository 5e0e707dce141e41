import { gzipSync } from 'node:zlib';
import { expect, test, type APIRequestContext } from '@playwright/test';

/**
 * The landing page's JavaScript budget (issue 37 item 19): what the served index.html names
 * (entry scripts and module preloads) and every chunk they import statically, each gzipped, is
 * at most 170 KB. Routes and what the app `import()`s on use (the player's pieces, Hebrew) are
 * not part of it. `bench/web/landing-weight.bench.ts` prints the same figure per file.
 */
const BUDGET_KB = 170;

/** Static `import … from "./x.js"`, `import "./x.js"`, `export … from "./x.js"`; `import("./x.js")` is left out. */
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[^"'`();]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;

async function landingScripts(request: APIRequestContext): Promise<Map<string, { code: string; gzip: number }>> {
  const html = await (await request.get('/')).text();
  const queue = [
    ...[...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!),
    ...[...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map((match) => match[1]!),
  ].map((src) => new URL(src, 'http://encore/').pathname);
  expect(queue.length).toBeGreaterThan(0);
  const seen = new Map<string, { code: string; gzip: number }>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    const response = await request.get(file);
    expect(response.ok(), file).toBe(true);
    const body = await response.body();
    const code = body.toString('utf8');
    seen.set(file, { code, gzip: gzipSync(body, { level: 9 }).length });
    for (const match of code.matchAll(STATIC_IMPORT)) queue.push(new URL(match[1]!, `http://encore${file}`).pathname);
  }
  return seen;
}

test('the landing page downloads at most 170 KB of JavaScript (gzip), Hebrew only when it is read', async ({ request }) => {
  const scripts = await landingScripts(request);
  const totalKb = [...scripts.values()].reduce((sum, script) => sum + script.gzip, 0) / 1024;
  expect(totalKb, [...scripts.keys()].join(', ')).toBeLessThanOrEqual(BUDGET_KB);
  // Hebrew is a chunk of its own: its texts are in none of the landing scripts.
  const everything = [...scripts.values()].map((script) => script.code).join('\n');
  expect(everything).not.toContain('טעינת כתובת השיר נכשלה');
  expect([...scripts.keys()].some((file) => file.includes('catalogue.he'))).toBe(false);
});

test('a Hebrew reader gets the landing page in Hebrew, its catalogue loaded on demand', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'he-IL' });
  const page = await context.newPage();
  const loaded: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) loaded.push(response.url());
  });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('link', { name: 'מתחילים' }).first()).toBeVisible();
  expect(loaded.some((url) => url.includes('/catalogue.he-'))).toBe(true);
  await context.close();
});
