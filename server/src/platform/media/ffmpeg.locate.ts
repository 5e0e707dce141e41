import { execFile } from 'node:child_process';
import { constants, createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { isErrno } from '../fs/errno.js';
import { FfmpegError } from './ffmpeg.error.js';

const run = promisify(execFile);

/** Where the binary came from: FFMPEG_PATH, the system's PATH, or the npm package Encore depends on. */
export type FfmpegSource = 'configured' | 'system' | 'bundled';

export interface LocatedFfmpeg {
  path: string;
  source: FfmpegSource;
  /** What `ffmpeg -version` says after "ffmpeg version" ("5.1.9-0+deb12u1", "N-47683-g0e8eb07980-static"). */
  version: string;
}

export interface LocateOptions {
  /** FFMPEG_PATH: when set, the only binary tried; a broken one is an error, not a reason to use another. */
  configuredPath?: string | undefined;
  /** Where a bundled binary without its execute bit is copied to (DATA_DIR). */
  dataDir: string;
  /** The sources to try, in order (tests pick one). Default: configured, else system, else bundled. */
  choices?: readonly FfmpegSource[];
  /** The PATH to search (default process.env.PATH). */
  searchPath?: string | undefined;
}

const EXE = process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg';
const VERSION_TIMEOUT_MS = 15_000;

/**
 * Finds an ffmpeg that runs. A configured FFMPEG_PATH is used or refused as it is; otherwise
 * the first `ffmpeg` on PATH that answers `-version`, else the one inside the
 * `@ffmpeg-installer` package for this platform, so a machine with nothing installed works.
 */
export async function locateFfmpeg(options: LocateOptions): Promise<LocatedFfmpeg> {
  const tried: string[] = [];
  for (const source of choicesOf(options)) {
    const candidate = await candidateFor(source, options);
    if (candidate === undefined) {
      tried.push(`${source}: none found`);
      continue;
    }
    try {
      return { path: candidate, source, version: await readVersion(candidate) };
    } catch (error) {
      tried.push(`${source}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new FfmpegError('unavailable', `no usable ffmpeg (${tried.join('; ') || 'nothing to try'})`);
}

/**
 * The binary `locateFfmpeg` tries first, without running it: what a cached probe of that binary
 * must name to stand for a new one. Undefined when there is none (or a configured one is broken).
 */
export async function firstCandidate(options: LocateOptions): Promise<{ path: string; source: FfmpegSource } | undefined> {
  for (const source of choicesOf(options)) {
    const candidate = await candidateFor(source, options).catch(() => undefined);
    if (candidate !== undefined) return { path: candidate, source };
  }
  return undefined;
}

/** The sources to try, in order: the tests' choice, else a configured FFMPEG_PATH alone, else system then bundled. */
function choicesOf(options: LocateOptions): readonly FfmpegSource[] {
  return options.choices ?? (options.configuredPath ? ['configured'] : ['system', 'bundled']);
}

async function candidateFor(source: FfmpegSource, options: LocateOptions): Promise<string | undefined> {
  switch (source) {
    case 'configured':
      if (!options.configuredPath) return undefined;
      if (!(await isExecutableFile(options.configuredPath))) throw new FfmpegError('unavailable', 'FFMPEG_PATH does not name an executable file');
      return path.resolve(options.configuredPath);
    case 'system':
      return onSearchPath(options.searchPath ?? process.env['PATH'] ?? '');
    case 'bundled':
      return bundledFfmpeg(options.dataDir);
  }
}

async function onSearchPath(searchPath: string): Promise<string | undefined> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue; // a relative PATH entry would depend on the working directory
    const file = path.join(dir, EXE);
    if (await isExecutableFile(file)) return file;
  }
  return undefined;
}

/**
 * The binary of `@ffmpeg-installer/<platform>-<arch>`, resolved from `@ffmpeg-installer/ffmpeg`
 * (which lists it as an optional dependency). Its postinstall `chmod` does not run where npm
 * skips install scripts; the tarball's mode then decides, so a binary without its execute bit
 * is made executable, or copied to DATA_DIR/bin when its folder is not ours to change.
 */
export async function bundledFfmpeg(dataDir: string): Promise<string | undefined> {
  const packageDir = bundledPackageDir();
  if (packageDir === undefined) return undefined;
  const file = path.join(packageDir.dir, EXE);
  try {
    await fs.access(file, constants.R_OK);
  } catch {
    return undefined;
  }
  return ensureExecutable(file, path.join(dataDir, 'bin', `ffmpeg-${packageDir.version}${process.platform === 'win32' ? '.exe' : ''}`));
}

function bundledPackageDir(): { dir: string; version: string } | undefined {
  const name = `@ffmpeg-installer/${process.platform}-${process.arch}`;
  try {
    const installer = createRequire(import.meta.url).resolve('@ffmpeg-installer/ffmpeg/package.json');
    const manifest = createRequire(installer).resolve(`${name}/package.json`);
    const version = (createRequire(installer)(`${name}/package.json`) as { version?: unknown }).version;
    return { dir: path.dirname(manifest), version: typeof version === 'string' ? version : 'unknown' };
  } catch {
    return undefined; // no package for this platform, or installed with --omit=optional
  }
}

/** `file` if it can be executed, after a chmod if needed; else a 0755 copy at `fallback`. */
export async function ensureExecutable(file: string, fallback: string): Promise<string> {
  if (await isExecutableFile(file)) return file;
  try {
    const { mode } = await fs.stat(file);
    await fs.chmod(file, mode | 0o111);
    if (await isExecutableFile(file)) return file;
  } catch (error) {
    if (!isErrno(error, 'EPERM', 'EACCES', 'EROFS')) throw error;
  }
  const [source, copied] = await Promise.all([fs.stat(file), fs.stat(fallback).catch(() => undefined)]);
  if (copied?.size !== source.size || !(await isExecutableFile(fallback))) {
    await fs.mkdir(path.dirname(fallback), { recursive: true });
    await writeFileAtomic(fallback, createReadStream(file), { mode: 0o755 });
  }
  return fallback;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return false;
    await fs.access(file, constants.X_OK);
    // root passes X_OK for any file with an execute bit anywhere; demand one for real.
    return process.platform === 'win32' || (stat.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

async function readVersion(file: string): Promise<string> {
  let stdout: string;
  try {
    ({ stdout } = await run(file, ['-hide_banner', '-version'], { timeout: VERSION_TIMEOUT_MS, maxBuffer: 1024 * 1024 }));
  } catch (error) {
    // execFile's message repeats the command line and its output; one word says enough here.
    const why = error instanceof Error && 'code' in error ? String(error.code) : 'failed';
    throw new Error(`does not run (${why})`);
  }
  const match = /^ffmpeg version (\S+)/m.exec(stdout);
  if (!match?.[1]) throw new Error('does not answer -version like ffmpeg');
  return match[1];
}
