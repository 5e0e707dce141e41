import { mailJobs } from '../platform/mail/mail.jobs.js';
import { maintenanceJobs } from '../platform/jobs/maintenance.jobs.js';
import type { AnyJobDefinition } from '../platform/jobs/jobs.types.js';
import { TEMP_FILE_MIN_AGE_MS, type Platform } from '../platform/platform.js';
import { tasksJobs } from '../platform/tasks/tasks.jobs.js';
import type { StartedModules } from './module-runtime.js';

/**
 * Every background job of a process, one list that every process registers: the platform's
 * (mail, task sweeps, the hourly clean-up made of the modules' steps) and the modules'.
 */
export function processJobs(platform: Platform, modules: StartedModules): AnyJobDefinition[] {
  return [
    ...mailJobs(platform.mailer),
    ...tasksJobs(platform.tasks),
    ...modules.jobs(),
    ...maintenanceJobs([...modules.maintenance().map((step) => step.run), () => platform.removeStaleTempFiles(new Date(Date.now() - TEMP_FILE_MIN_AGE_MS))]),
  ];
}
