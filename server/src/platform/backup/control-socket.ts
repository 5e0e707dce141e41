import { createServer, request, type Server } from 'node:http';
import { chmod, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../logger.js';

/**
 * The serving process's door for the `backup` command on the same machine. With the embedded
 * database only the serving process may open DATA_DIR/db (embedded-lock.ts), so a consistent
 * backup can only be taken inside it: the command asks over a Unix socket in DATA_DIR, which
 * only who may read DATA_DIR (and so every byte a backup holds) can open. No port, no token.
 */
export const CONTROL_SOCKET_NAME = 'control.sock';

/** Unix socket paths are limited to 107 bytes on Linux. */
const MAX_SOCKET_PATH = 107;

export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, CONTROL_SOCKET_NAME);
}

export interface ControlHandlers {
  /** Writes a backup archive to `out` and ends it. */
  backup(out: Writable): Promise<unknown>;
}

/**
 * Listens on DATA_DIR/control.sock: `POST /backup` answers with the archive. Resolves to the
 * closer, or to undefined (logged) when the socket cannot be made (a path too long, say).
 */
export async function startControlSocket(dataDir: string, handlers: ControlHandlers, logger: Logger): Promise<(() => Promise<void>) | undefined> {
  const socketPath = controlSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    logger.warn({ socketPath }, 'the data folder path is too long for the control socket: `backup` cannot run while Encore serves');
    return undefined;
  }
  // This process holds the embedded database's lock: a socket file left here is a dead process's.
  await rm(socketPath, { force: true });
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/gzip' });
    logger.info('backup started');
    handlers.backup(res).then(
      () => logger.info('backup written'),
      (error: unknown) => {
        logger.error({ err: error }, 'backup failed');
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    logger.warn({ err: error, socketPath }, 'could not open the control socket: `backup` cannot run while Encore serves');
    return Promise.reject(error);
  });
  await chmod(socketPath, 0o600);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await rm(socketPath, { force: true });
  };
}

/**
 * Asks the process serving `dataDir` for a backup and writes it to `out`. Resolves false when
 * no process listens there (the command then takes the backup itself).
 */
export function requestBackup(dataDir: string, out: Writable): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: controlSocketPath(dataDir), method: 'POST', path: '/backup' }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`The running Encore refused the backup (HTTP ${res.statusCode}).`));
        return;
      }
      res.on('aborted', () => reject(new Error('The running Encore stopped sending the backup: see its log.')));
      pipeline(res, out).then(() => (res.complete ? resolve(true) : reject(new Error('The running Encore stopped sending the backup: see its log.'))), reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(false);
      else reject(error);
    });
    req.end();
  });
}
