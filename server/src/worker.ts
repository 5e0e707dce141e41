import type { Config } from './config.js';
import { createFeatures, featureJobs } from './features/features.js';
import type { AnyJobDefinition } from './platform/jobs/jobs.types.js';
import type { Logger } from './platform/logger.js';
import { startPlatform, type Platform } from './platform/platform.js';

/** `main.ts worker`: the features' jobs, all of them (light and heavy), without HTTP. */
export async function startWorker(config: Config, logger: Logger, extraJobs: AnyJobDefinition[] = []): Promise<Platform> {
  const platform = await startPlatform(config, logger);
  try {
    const features = createFeatures(platform, logger);
    await platform.jobs.register([...featureJobs(platform, features), ...extraJobs]);
    await platform.jobs.work('all');
    return platform;
  } catch (error) {
    await platform.close();
    throw error;
  }
}
