import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { clipUploadDeadlineMs, uploadDeadlineMs, type Config } from './config.js';
import { authenticationPort, signUpModePort } from './features/auth/auth.port.js';
import { uploadGatePort } from './features/library/library.port.js';
import { encoreModules } from './features/modules.js';
import type { AnyModule } from './modules/module.js';
import { orderModules } from './modules/module-graph.js';
import { StartedModules } from './modules/module-runtime.js';
import { namedModulePlugin, openApiTags } from './modules/module-plugins.js';
import { processJobs } from './modules/process-jobs.js';
import { systemRoutes } from './platform/http/system.routes.js';
import { tasksRoutes } from './platform/tasks/tasks.routes.js';
import { installAuthentication } from './platform/http/authentication.js';
import { installErrorHandler } from './platform/http/error-handler.js';
import { installRequestDeadlines, serverTimeoutOptions, type ServerTimeouts } from './platform/http/request-deadlines.js';
import { installInputGuard } from './platform/http/input-guard.js';
import { installJsonBody, zodValidatorCompiler } from './platform/http/json-body.js';
import { installSecurityHeaders } from './platform/http/security-headers.js';
import type { AnyJobDefinition, JobSelection } from './platform/jobs/jobs.types.js';
import { startPlatform, type Platform } from './platform/platform.js';
import { platformBackupSources, writeBackup } from './platform/backup/backup.js';
import { startControlSocket } from './platform/backup/control-socket.js';
import { EncoreMetrics, installMetrics } from './platform/http/metrics.js';
import { enterLogContext, logMixin, requestId } from './platform/log-context.js';
import { musicFoldersPort } from './features/music-folders/music-folders.port.js';
import { localStorageRoutes } from './platform/storage/local-storage.routes.js';
import { storageOrigins } from './platform/storage/storage-origins.js';

declare module 'fastify' {
  interface FastifyInstance {
    encore: { platform: Platform; modules: StartedModules };
  }
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** Fastify's factory types describe ajv's compilers; zod's take the same route definitions at run time. */
const zodCompilers: CompilersFactory = {
  buildValidator: (() => zodValidatorCompiler) as unknown as CompilersFactory['buildValidator'],
  buildSerializer: (() => serializerCompiler) as unknown as CompilersFactory['buildSerializer'],
};

/**
 * Builds the whole HTTP application on the real components named by `config`. `npm start`
 * and the tests build it the same way; only the configuration differs.
 */
export async function buildApp(config: Config, options: { extraJobs?: AnyJobDefinition[]; modules?: readonly AnyModule[] } = {}): Promise<FastifyInstance> {
  const uploadLimits = { deadlineMs: uploadDeadlineMs(config), stallMs: config.uploads.stallMs, perOwner: config.uploads.perUser };
  const clipUploadMs = clipUploadDeadlineMs(config);
  const timeouts: ServerTimeouts = { ...config.timeouts, longestBodyMs: Math.max(uploadLimits.deadlineMs, clipUploadMs) + 2_000 };
  const app = Fastify({
    ...serverTimeoutOptions(timeouts),
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      mixin: logMixin,
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Every request's log lines carry its id (a proxy's X-Request-Id when plain, else a UUID); the
    // answer says it back, and log-context.ts puts it on the lines modules write for the request.
    requestIdHeader: false,
    genReqId: requestId,
    // Every schema is zod: with these factories Fastify never loads ajv and fast-json-stringify
    // (about 0.15 s of every start).
    schemaController: { compilersFactory: zodCompilers },
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    enterLogContext({ reqId: request.id });
    done();
  });
  installRequestDeadlines(app, timeouts);
  installInputGuard(app);
  installJsonBody(app);

  const moduleList = options.modules ?? encoreModules;
  // A module list that cannot start (a cycle, a port nobody provides) fails before anything opens.
  orderModules(moduleList);
  const platform = await startPlatform(config, app.log);
  app.addHook('onClose', async () => platform.close());
  // Background work (the sonic analysis) gives way while requests are answered.
  app.addHook('onRequest', (_request, reply, done) => {
    platform.activity.started();
    // Once, whether the answer was sent or the client went away.
    reply.raw.once('close', () => platform.activity.ended());
    done();
  });
  const modules = await StartedModules.start(moduleList, platform, app.log).catch(async (error: unknown) => {
    await platform.close();
    throw error;
  });
  app.decorate('encore', { platform, modules });
  await platform.jobs.register([...processJobs(platform, modules), ...(options.extraJobs ?? [])]);
  await platform.jobs.work(servingJobs[config.worker]);
  await modules.start();
  // The embedded database is this process's alone: the `backup` command asks it over DATA_DIR/control.sock.
  if (platform.database.snapshot) {
    const sources = platformBackupSources(platform);
    const closeControl = await startControlSocket(config.dataDir, { backup: (out) => writeBackup(sources, out) }, app.log).catch(() => undefined);
    if (closeControl) app.addHook('preClose', closeControl);
  }
  // Before the platform closes: a scan or watcher of a module must not outlive the database.
  app.addHook('preClose', async () => modules.stop().catch((error: unknown) => app.log.error({ err: error }, 'a module did not stop cleanly')));

  const scanSource = moduleList.some((module) => module.provides.some((port) => port.name === musicFoldersPort.name))
    ? modules.port(musicFoldersPort)
    : undefined;
  const metrics = new EncoreMetrics(
    {
      queues: () => platform.jobs.admin.counts(),
      ffmpegRunning: () => platform.ffmpeg.running(),
      storageBytes: () => storageBytes(platform),
      ...(scanSource
        ? {
            scan: async () => {
              const status = await scanSource.status();
              return { running: status.state === 'running', total: status.total, done: status.done };
            },
          }
        : {}),
    },
    app.log,
  );
  const closeMetricsPort = await installMetrics(app, metrics, config.metrics);
  if (closeMetricsPort) app.addHook('onClose', closeMetricsPort);

  installSecurityHeaders(app, storageOrigins(config));
  const authentication = modules.port(authenticationPort);
  installAuthentication(app, (token) => authentication.authenticate(token));
  // Before the platform's onClose closes the database its LISTEN runs on.
  app.addHook('preClose', async () => authentication.close());

  await app.register(swagger, {
    openapi: {
      info: { title: 'Encore API', description: 'The API of Encore, a self-hosted music library.', version: '0.1.0' },
      tags: [
        ...openApiTags(modules),
        { name: 'system', description: 'Health and the settings the web app needs.' },
        { name: 'tasks', description: 'Work a user waits for (transcriptions, renders): its state, and a live stream of it.' },
      ],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(
    async (api) => {
      const signUp = modules.port(signUpModePort);
      await api.register(systemRoutes(platform, { health: () => modules.health(), signUpMode: () => signUp.mode() }));
      for (const started of modules.list) await api.register(namedModulePlugin(started, modules));
      await api.register(tasksRoutes(platform.tasks, { heartbeatMs: Math.min(15_000, config.timeouts.idleMs / 2), sessions: authentication.streams }));
      // The local driver's signed URLs, and with any driver those of the music folders' files.
      await api.register(localStorageRoutes(platform.storage, uploadLimits, { acceptPut: (key) => modules.port(uploadGatePort).assertUploadOpen(key) }), {
        prefix: '/storage',
      });
    },
    { prefix: '/api' },
  );
  // Second APIs with paths of their own (Subsonic's /rest), each in its own encapsulated plugin.
  for (const started of modules.list) if (started.parts.rootRoutes) await app.register(started.parts.rootRoutes);

  await serveWebApp(app, config.webDist);
  return app;
}

/** The bytes of every object of Encore's own storage (the music folders' files are mounted, not listed). */
async function storageBytes(platform: Platform): Promise<number> {
  let bytes = 0;
  for await (const object of platform.storage.primary.list('')) bytes += object.size;
  return bytes;
}

/** WORKER on a serving process: `light` leaves heavy (media) jobs to `worker` processes. */
const servingJobs: Record<Config['worker'], JobSelection> = { 'in-process': 'all', light: 'light', off: 'none' };

/** The built web app, with every non-API path falling back to index.html for the client router. */
async function serveWebApp(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const index = webDist ? path.join(webDist, 'index.html') : undefined;
  if (webDist && index && existsSync(index)) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each file (web/build/precompress.plugin.ts).
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/') && request.url !== '/api';
    if (isPage && index && existsSync(index)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: 'Not found.' });
  });
}
