import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { QueueCounts } from '../jobs/job-queue.admin.js';
import type { Logger } from '../logger.js';

/** What the gauges read when Prometheus scrapes; each source is asked only then. */
export interface MetricsSources {
  /** Every declared job queue with its waiting, running and failed jobs. */
  queues(): Promise<QueueCounts[]>;
  /** ffmpeg processes running in this process (transcodes, renders, decodes). */
  ffmpegRunning(): number;
  /** Bytes of Encore's own storage (a listing: refreshed in the background, at most every STORAGE_REFRESH_MS). */
  storageBytes(): Promise<number>;
  /** The music folders' scan, when the instance has the module: files found and dealt with. */
  scan?(): Promise<{ running: boolean; total: number; done: number }>;
}

/** A listing of a large bucket takes seconds: a scrape reads the last figure, refreshed this often at most. */
const STORAGE_REFRESH_MS = 5 * 60_000;

/**
 * Prometheus metrics (issue 40) in a registry of this app's own (tests build many apps in one
 * process): HTTP requests by route and status with their durations, job queues by kind, the
 * music-folder scan, ffmpeg processes, storage used, and Node's process metrics (memory,
 * event-loop lag, GC) from prom-client's defaults.
 */
export class EncoreMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;

  constructor(sources: MetricsSources, logger: Logger) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'encore_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'encore_http_request_duration_seconds',
      help: 'Time from a request to its answer, by route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    new Gauge({
      name: 'encore_jobs',
      help: 'Jobs by queue (kind) and state: waiting, active (running) or failed (for good).',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        const queues = await sources.queues().catch((error: unknown) => {
          logger.warn({ err: error }, 'metrics: could not count the job queues');
          return [];
        });
        for (const queue of queues) {
          this.set({ queue: queue.name, state: 'waiting' }, queue.waiting);
          this.set({ queue: queue.name, state: 'active' }, queue.running);
          this.set({ queue: queue.name, state: 'failed' }, queue.failed);
        }
      },
    });
    new Gauge({
      name: 'encore_ffmpeg_processes_running',
      help: 'ffmpeg processes this Encore process runs now (transcodes, clip renders, analysis decodes).',
      registers,
      collect() {
        this.set(sources.ffmpegRunning());
      },
    });
    let storage: { bytes: number; at: number } | undefined;
    let refreshing: Promise<void> | undefined;
    const refreshStorage = () => {
      refreshing ??= sources
        .storageBytes()
        .then(
          (bytes) => void (storage = { bytes, at: Date.now() }),
          (error: unknown) => logger.warn({ err: error }, 'metrics: could not measure the storage'),
        )
        .finally(() => (refreshing = undefined));
      return refreshing;
    };
    new Gauge({
      name: 'encore_storage_bytes',
      help: "Bytes of Encore's own storage (uploads, covers, clips, transcodes; not the music folders). Measured at most every 5 minutes.",
      registers,
      async collect() {
        if (!storage) await refreshStorage();
        else if (Date.now() - storage.at > STORAGE_REFRESH_MS) void refreshStorage();
        if (storage) this.set(storage.bytes);
      },
    });
    const scan = sources.scan;
    if (scan) {
      const scanFiles = new Gauge({
        name: 'encore_music_scan_files',
        help: 'Files of the running (or last) music-folder scan: found, and dealt with.',
        labelNames: ['state'],
        registers,
      });
      new Gauge({
        name: 'encore_music_scan_running',
        help: '1 while a music-folder scan runs.',
        registers,
        async collect() {
          const status = await scan().catch(() => undefined);
          if (!status) return;
          this.set(status.running ? 1 : 0);
          scanFiles.set({ state: 'found' }, status.total);
          scanFiles.set({ state: 'done' }, status.done);
        },
      });
    }
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.durations.observe(labels, seconds);
  }
}

/**
 * Counts every answer of `app`, and serves the metrics: at GET /metrics of the app for requests
 * bearing METRICS_TOKEN, and/or on METRICS_PORT of 127.0.0.1 with no token. With neither set
 * there is no /metrics (404). Resolves to the closer of the separate port, if any.
 */
export async function installMetrics(
  app: FastifyInstance,
  metrics: EncoreMetrics,
  options: { token: string | undefined; port: number | undefined },
): Promise<(() => Promise<void>) | undefined> {
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (/api/files/:id), never the path: ids would make a series per song.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
  const { token } = options;
  if (token) {
    const expected = Buffer.from(`Bearer ${token}`);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ message: 'Authentication required.' });
      }
      return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  }
  if (options.port === undefined) return undefined;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics: could not collect');
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
