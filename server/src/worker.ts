import type { Config } from './config.js';
import { encoreModules } from './features/modules.js';
import type { AnyModule } from './modules/module.js';
import { orderModules } from './modules/module-graph.js';
import { StartedModules } from './modules/module-runtime.js';
import { processJobs } from './modules/process-jobs.js';
import type { AnyJobDefinition } from './platform/jobs/jobs.types.js';
import type { Logger } from './platform/logger.js';
import { startPlatform, type Platform } from './platform/platform.js';

/** `main.ts worker`: the modules' jobs, all of them (light and heavy), without HTTP. */
export async function startWorker(
  config: Config,
  logger: Logger,
  extraJobs: AnyJobDefinition[] = [],
  modules: readonly AnyModule[] = encoreModules,
): Promise<Platform> {
  orderModules(modules);
  const platform = await startPlatform(config, logger);
  try {
    const started = await StartedModules.start(modules, platform, logger);
    await platform.jobs.register([...processJobs(platform, started), ...extraJobs]);
    await platform.jobs.work('all');
    return platform;
  } catch (error) {
    await platform.close();
    throw error;
  }
}
