import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The text of every outbox mail to `to`, quoted-printable soft breaks and `=3D` undone. */
export async function mailsTo(dataDir: string, to: string): Promise<string[]> {
  const outbox = path.join(dataDir, 'outbox');
  const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const texts = await Promise.all(files.map((file) => readFile(path.join(outbox, file), 'utf8')));
  return texts.filter((text) => text.includes(to)).map((text) => text.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
}

/** Every link to `pathname` (e.g. '/verify-email') in the outbox mails to `to`, oldest first. */
export async function linksTo(dataDir: string, to: string, pathname: string): Promise<URL[]> {
  const pattern = new RegExp(`http://encore\\.test${pathname}\\?[^\\s"<>]+`, 'g');
  const links = new Set<string>();
  for (const text of await mailsTo(dataDir, to)) {
    for (const match of text.matchAll(pattern)) links.add(match[0].replace(/&amp;/g, '&'));
  }
  return [...links].map((link) => new URL(link));
}

/** Waits for a link to `pathname` in a mail to `to` that is not one of `seen`. */
export async function waitForLink(dataDir: string, to: string, pathname: string, seen: URL[] = [], timeoutMs = 15_000): Promise<URL> {
  const known = new Set(seen.map((url) => url.href));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const fresh = (await linksTo(dataDir, to, pathname)).find((url) => !known.has(url.href));
    if (fresh) return fresh;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no new ${pathname} link to ${to} within ${timeoutMs} ms`);
}
