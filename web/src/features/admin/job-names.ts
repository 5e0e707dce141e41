import type { MessageKey } from '../../lib/i18n/catalogue';

/**
 * The label of each kind of background job, by its queue's name in the server (`jobKind(...)`).
 * A kind missing here shows its raw name; a test keeps every kind the server declares labelled.
 */
export const JOB_LABELS: Readonly<Record<string, MessageKey>> = {
  'auth.password-reset-request': 'adminJobAuthPasswordReset',
  'clips.render': 'adminJobClipsRender',
  'discovery.analyse-song': 'adminJobAnalyseSong',
  'discovery.analysis-backfill': 'adminJobAnalysisBackfill',
  'discovery.fresh-playlists': 'adminJobFreshPlaylists',
  'discovery.refresh-playlist': 'adminJobRefreshPlaylist',
  'listening.submit-listen': 'adminJobSubmitListen',
  'lyrics.transcribe': 'adminJobTranscribe',
  'lyrics.embedded': 'adminJobEmbeddedLyrics',
  'lyrics.embedded-backfill': 'adminJobEmbeddedBackfill',
  'mail.send': 'adminJobSendMail',
  'maintenance.cleanup': 'adminJobCleanup',
  'tasks.sweep-abandoned': 'adminJobSweepTasks',
};

/** The message key naming the job kind `queue`, or null for a kind without a label. */
export function jobLabelKey(queue: string): MessageKey | null {
  return Object.hasOwn(JOB_LABELS, queue) ? (JOB_LABELS[queue] ?? null) : null;
}
