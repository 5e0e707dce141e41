import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ffmpegFeatures, healthResponse, systemEndpoints, type FfmpegHealth, type HealthResponse } from '@encore/common/http.contract';
import type { SignUpMode } from '@encore/common/auth.contract';
import { route } from './endpoint-route.js';
import type { Platform } from '../platform.js';

const VERSION = process.env['npm_package_version'] ?? '0.1.0';
const CHECK_TIMEOUT_MS = 3000;

async function probe(driver: string, check: () => Promise<void>): Promise<HealthResponse['database']> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok', driver };
  } catch (error) {
    return { status: 'error', driver, detail: error instanceof Error ? error.message : 'check failed' };
  } finally {
    clearTimeout(timer);
  }
}

/** ffmpeg's entry: 'error' when no binary runs; lacking optional filters or encoders is still 'ok'. */
async function probeFfmpeg(platform: Platform): Promise<FfmpegHealth> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<FfmpegHealth>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 'error', driver: 'ffmpeg', detail: `no answer within ${CHECK_TIMEOUT_MS} ms`, lacks: [...ffmpegFeatures] }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([platform.ffmpeg.health(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `health`: what the modules add to the answer (the analysis progress, say); `signUpMode`: who may create an account now. */
export function systemRoutes(
  platform: Platform,
  extras: { health?: () => Promise<Record<string, unknown>>; signUpMode?: () => Promise<SignUpMode> } = {},
): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, systemEndpoints.health, { logLevel: 'warn', responses: { 503: healthResponse } }, async (_request, reply) => {
      const [database, storage, jobs, mail, ffmpeg] = await Promise.all([
        probe(platform.database.driver, () => platform.database.check()),
        probe(platform.storage.driver, () => platform.storage.check()),
        probe('pg-boss', () => platform.jobs.check()),
        probe(platform.mailer.driver, () => platform.mailer.check()),
        probeFfmpeg(platform),
      ]);
      const fromModules = (await extras.health?.().catch(() => undefined)) ?? {};
      const healthy = [database, storage, jobs, mail, ffmpeg].every((c) => c.status === 'ok');
      return reply.status(healthy ? 200 : 503).send({
        status: healthy ? 'ok' : 'degraded',
        version: VERSION,
        uptimeSeconds: Math.round(process.uptime()),
        database,
        storage,
        jobs,
        mail,
        ffmpeg,
        ...fromModules,
      });
    });

    route(app, systemEndpoints.config, {}, async () => ({
      signUp: (await extras.signUpMode?.()) ?? platform.config.signUp ?? 'open',
      googleClientId: platform.config.google.clientId ?? null,
      maxUploadMb: Math.round((platform.config.maxUploadBytes / 1024 / 1024) * 10) / 10,
      sso: {
        oidc: platform.config.oidc ? { buttonText: platform.config.oidc.buttonText ?? null } : null,
        trustedHeader: platform.config.trustedAuth !== undefined,
      },
    }));
  };
}
