import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logMixin, withLogContext } from './log-context.js';

function captured() {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { logger: pino({ mixin: logMixin }, stream), lines };
}

describe('log context', () => {
  it("puts the job's id on every line written while it runs, by any logger, also after an await", async () => {
    const { logger, lines } = captured();
    const moduleLogger = logger.child({ module: 'library' });
    await withLogContext({ jobId: 'job-1', queue: 'library.analyse' }, async () => {
      // A turn of the event loop: the context must survive a macrotask, not only a microtask.
      await new Promise((resolve) => setImmediate(resolve));
      moduleLogger.info('inside');
    });
    logger.info('outside');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({ msg: 'inside', module: 'library', jobId: 'job-1', queue: 'library.analyse' });
    expect(lines[1]).not.toHaveProperty('jobId');
  });

  it('never writes a key twice when the logger binds it already (Fastify binds reqId)', async () => {
    const { logger, lines } = captured();
    let raw = '';
    const stream = new PassThrough();
    stream.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    const requestLogger = pino({ mixin: logMixin }, stream).child({ reqId: 'r-1' });
    withLogContext({ reqId: 'r-1' }, () => {
      requestLogger.info('bound');
      logger.info('unbound');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(raw.match(/"reqId"/g)).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'unbound', reqId: 'r-1' });
  });
});
