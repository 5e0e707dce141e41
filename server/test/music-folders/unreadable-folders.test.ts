import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanProblem } from '@encore/common/music-folders.contract';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines } from '../support/test-app.js';

/**
 * Issue 37, item 7: a folder Encore cannot read now is not a folder whose songs were deleted.
 * Root reads everything, so the scans run in a process of user `nobody` (setpriv), on a folder
 * it owns, while the test (root) takes its permissions away and gives them back.
 */
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = path.join(SERVER_DIR, 'test/support/folder-scan-child.ts');

interface Answer {
  shown: number;
  counts?: { missing: number };
  problems?: ScanProblem[];
}

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => {
  await fixtures?.cleanup();
});

const isRoot = process.getuid?.() === 0;

describe.each(engines)('an unreadable music folder on %s', (engine) => {
  it.skipIf(!isRoot)(
    'keeps its songs on every kind of scan and says which folder could not be read',
    async () => {
      // The folder and the scanning process's data side by side in a folder of the test's own.
      const base = await fs.mkdtemp(path.join(os.tmpdir(), 'scan-as-nobody-'));
      const folder = path.join(base, 'music');
      const dataDir = path.join(base, 'data');
      let child: ChildProcessWithoutNullStreams | undefined;
      try {
        for (const dir of ['Artist/Album', 'Artist/Other', 'Loose']) await fs.mkdir(path.join(folder, dir), { recursive: true });
        await fs.copyFile(fixtures.plainMp3, path.join(folder, 'Artist/Album/one.mp3'));
        await fs.copyFile(fixtures.opus, path.join(folder, 'Artist/Album/two.opus'));
        await fs.copyFile(fixtures.vorbis, path.join(folder, 'Artist/Other/three.ogg'));
        await fs.copyFile(fixtures.wav, path.join(folder, 'Loose/four.wav'));
        await fs.chmod(folder, 0o755);
        await fs.chmod(base, 0o755);
        await chownTree(folder, 'nobody');
        // Not the shared seeded cluster: the process of 'nobody' makes its own database in its own folder.
        await fs.mkdir(dataDir);
        await chownTree(dataDir, 'nobody');

        child = spawn('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, '--conditions=source', '--import', 'tsx', CHILD], {
          cwd: SERVER_DIR,
          env: {
            PATH: process.env['PATH'] ?? '',
            HOME: '/tmp',
            SCAN_FOLDER: folder,
            SCAN_ENGINE: engine,
            SCAN_DATA_DIR: dataDir,
            ...(process.env['TEST_DATABASE_URL'] ? { TEST_DATABASE_URL: process.env['TEST_DATABASE_URL'] } : {}),
            ...(process.env['FFMPEG_PATH'] ? { FFMPEG_PATH: process.env['FFMPEG_PATH'] } : {}),
          },
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        // The answers, one JSON line each, queued as they arrive. (Not readline's async iterator:
        // it pauses the pipe between reads, and an answer written meanwhile was not always seen.)
        const answers: string[] = [];
        let waiting: ((line: string) => void) | undefined;
        let pending = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          pending += chunk;
          for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
            const line = pending.slice(0, end);
            pending = pending.slice(end + 1);
            if (waiting) {
              const give = waiting;
              waiting = undefined;
              give(line);
            } else answers.push(line);
          }
        });
        const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
        const ended = exited.then((code) => Promise.reject(new Error(`the scanning process ended (${code}): ${stderr}`)));
        ended.catch(() => undefined);
        let step = 'start';
        // A guard against a hung process (it names the step and shows what the process said), not a measure of speed.
        const guarded = async <T>(work: Promise<T>): Promise<T> => {
          let timer: NodeJS.Timeout | undefined;
          const hung = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`nothing from the scanning process at ${step} within 5 minutes: ${stderr}`)), 300_000);
          });
          return Promise.race([work, hung]).finally(() => clearTimeout(timer));
        };
        const next = async (): Promise<Answer> => {
          const queued = answers.shift();
          const line = queued ?? new Promise<string>((resolve) => (waiting = resolve));
          return JSON.parse(await guarded(Promise.race([line, ended]))) as Answer;
        };
        const scan = async (scopes?: { path: string; recursive: boolean }[]): Promise<Answer> => {
          step = JSON.stringify(scopes ?? 'everything');
          child!.stdin.write(`${JSON.stringify(scopes ? { scopes } : {})}\n`);
          return next();
        };
        const reasonOf = (answer: Answer, at: string) => answer.problems?.find((problem) => problem.path === at)?.reason;

        expect((await next()).shown).toBe(4);

        // A subfolder at chmod 000: the watcher's scan of it, then a full scan (Scan now, the timer).
        await fs.chmod(path.join(folder, 'Artist'), 0o000);
        let answer = await scan([{ path: 'Artist', recursive: true }]);
        expect(answer.shown).toBe(4);
        expect(answer.counts?.missing).toBe(0);
        expect(reasonOf(answer, 'Artist')).toMatch(/Permission denied/);
        answer = await scan([{ path: 'Artist/Album', recursive: false }]);
        expect(answer.shown).toBe(4);
        expect(reasonOf(answer, 'Artist/Album')).toMatch(/Permission denied/);
        answer = await scan();
        expect(answer).toMatchObject({ shown: 4, counts: { missing: 0 } });
        expect(reasonOf(answer, 'Artist')).toMatch(/Permission denied.*kept/);

        // The whole folder unreadable.
        await fs.chmod(path.join(folder, 'Artist'), 0o755);
        await fs.chmod(folder, 0o000);
        answer = await scan();
        expect(answer).toMatchObject({ shown: 4, counts: { missing: 0 } });
        expect(reasonOf(answer, '')).toMatch(/Permission denied/);
        answer = await scan([{ path: 'Loose', recursive: true }]);
        expect(answer.shown).toBe(4);

        // Readable again: nothing was lost; a file really deleted is still seen as gone.
        await fs.chmod(folder, 0o755);
        await fs.rm(path.join(folder, 'Loose/four.wav'));
        answer = await scan();
        expect(answer).toMatchObject({ shown: 3, counts: { missing: 1 } });
        expect(answer.problems).toEqual([]);
        // Told to quit, it closes the app and exits (its stdin open or not).
        step = 'quit';
        child.stdin.write(`${JSON.stringify({ quit: true })}\n`);
        expect(await guarded(exited)).toBe(0);
      } finally {
        if (child && child.exitCode === null) child.kill('SIGKILL');
        await fs.chmod(folder, 0o755).catch(() => undefined);
        await fs.chmod(path.join(folder, 'Artist'), 0o755).catch(() => undefined);
        await fs.rm(base, { recursive: true, force: true });
      }
    },
    900_000,
  );
});

async function chownTree(root: string, user: string): Promise<void> {
  const { uid, gid } = await idsOf(user);
  await fs.chown(root, uid, gid);
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) await fs.chown(path.join(entry.parentPath, entry.name), uid, gid);
}

async function idsOf(user: string): Promise<{ uid: number; gid: number }> {
  const passwd = await fs.readFile('/etc/passwd', 'utf8');
  const fields = passwd
    .split('\n')
    .map((line) => line.split(':'))
    .find((parts) => parts[0] === user);
  if (!fields) throw new Error(`no user ${user}`);
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}
