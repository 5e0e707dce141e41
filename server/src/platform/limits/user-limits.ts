import { limitMessage } from '@encore/common/limit-messages';
import type { Config } from '../../config.js';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limiter.js';
import type { TaskLimit } from '../tasks/tasks.js';

/**
 * The per-user limits of fair shares (issue 29; README, Limits) as the rules each feature
 * applies where its users act. Admins are held to these too; only the storage quota
 * (features/library/storage-quota.ts) spares them.
 */

/** When a refused render or transcription may try again: a guess, they last minutes. */
const LIVE_TASK_RETRY_SECONDS = 30;

/** Clip renders waiting or running per user (USER_MAX_RENDERS). */
export function renderLimit(limits: Config['limits']): TaskLimit {
  return { max: limits.renders, message: limitMessage('limitRenders', { max: limits.renders }), retryAfterSeconds: LIVE_TASK_RETRY_SECONDS };
}

/** Transcriptions waiting or running per user (USER_MAX_TRANSCRIPTIONS). */
export function transcriptionLimit(limits: Config['limits']): TaskLimit {
  return {
    max: limits.transcriptions,
    message: limitMessage('limitTranscriptions', { max: limits.transcriptions }),
    retryAfterSeconds: LIVE_TASK_RETRY_SECONDS,
  };
}

/**
 * AI playlists per user and minute (USER_AI_PER_MINUTE), counted in the database's fixed
 * windows (platform/rate-limit), so every process shares the count. `{seconds}` is filled in
 * by the refusal: the time left in the window, which is also its Retry-After.
 */
export function aiGenerationRule(limits: Config['limits']): RateLimitRule {
  return { name: 'ai-playlists', limit: limits.aiPerMinute, windowSeconds: 60, message: limitMessage('limitAiPerMinute', { max: limits.aiPerMinute }) };
}

/** Counts one AI playlist of the user, or refuses it (429, Retry-After: the rest of the minute). */
export function aiGenerationGate(limiter: RateLimiter, limits: Config['limits']): (userId: number) => Promise<void> {
  const rule = aiGenerationRule(limits);
  return (userId) => limiter.hit(rule, `user:${userId}`);
}
