import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { musicFoldersModule } from '../../src/features/music-folders/music-folders.module.js';
import type { ScanScope } from '../../src/features/music-folders/folder-scanner.js';
import { startTestApp, type Engine } from './test-app.js';

/**
 * Encore's music-folder scans in a process of its own, so a test can run them as another user
 * than root (for whom permissions mean nothing): `setpriv --reuid=nobody … node --import tsx
 * folder-scan-child.ts`. It starts Encore on SCAN_ENGINE with MUSIC_FOLDERS=SCAN_FOLDER (its
 * start scan runs; its data in SCAN_DATA_DIR, owned by that user), then answers each line of stdin: `{"scopes": [...]}` scans those parts as
 * the watcher does, `{}` scans everything as Scan now and the timer do, `{"quit": true}` (or the
 * end of stdin) ends: the app is closed and the process exits.
 * Each answer is one line of JSON: the scan's counts and problems and the songs shown.
 */
const folder = process.env['SCAN_FOLDER'];
const engine = (process.env['SCAN_ENGINE'] ?? 'pglite') as Engine;
if (!folder) throw new Error('SCAN_FOLDER is not set');

// The data folder the test made for this user (its database is made there), or a new one.
const dataDir = process.env['SCAN_DATA_DIR'] ?? (await mkdtemp(path.join(tmpdir(), 'encore-scan-child-')));
const t = await startTestApp(engine, {
  DATA_DIR: dataDir,
  MUSIC_FOLDERS: folder,
  MUSIC_WATCH: 'off',
  MUSIC_SCAN_MINUTES: '0',
  ...(process.env['LOG_LEVEL'] ? { LOG_LEVEL: process.env['LOG_LEVEL'] } : {}),
});
const { service, scanner, repository } = t.app.encore.modules.internals(musicFoldersModule);

const shown = async () => (await repository.filesOf(folder)).filter((row) => row.songId !== null && row.missingSince === null).length;
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

await service.idle();
say({ shown: await shown(), status: await repository.status() });

// The commands, one line each, queued as they arrive and run one at a time. Not readline's async
// iterator: with the scans awaited between lines, a line sent during a scan was sometimes never
// seen, and the process waited on stdin for a command it had been given.
const lines: string[] = [];
let wake: (() => void) | undefined;
let closed = false;
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
    lines.push(pending.slice(0, end));
    pending = pending.slice(end + 1);
  }
  wake?.();
});
process.stdin.on('end', () => {
  closed = true;
  wake?.();
});
for (;;) {
  while (lines.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
  const line = lines.shift();
  if (line === undefined) break;
  const command = JSON.parse(line) as { quit?: boolean; scopes?: Omit<ScanScope, 'folder'>[] };
  if (command.quit) break;
  const result = await scanner.scan(command.scopes ? { scopes: command.scopes.map((scope) => ({ folder, ...scope })) } : {});
  say({ ...result, shown: await shown() });
}
// Done with stdin: a stream in flowing mode keeps the process alive for as long as the other end
// keeps the pipe open (a test waiting for this process to exit may still hold it).
process.stdin.destroy();
await t.close();
if (!process.env['SCAN_DATA_DIR']) await rm(dataDir, { recursive: true, force: true });
