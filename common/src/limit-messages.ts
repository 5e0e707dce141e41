/**
 * The answers of the per-user limits (fair shares, issue 29): English templates the server
 * fills in, and that the web app recognises in an answer to show the same text, with the same
 * figures, in the user's language (its catalogues translate the same keys). `{name}` marks a
 * figure; figures are plain text without line breaks (a size such as "9.8 MB", a count).
 */
export const limitMessagesEn = {
  /** 413 when a song is added: the room left is too small for this file. */
  limitStorageNoRoom: 'There is no room for this song: your songs use {used} of your {quota}, and this file is {size}. Delete some of your songs to make room.',
  /** 413 before an upload begins, when the storage is already full. */
  limitStorageFull: 'Your storage is full: your songs use {used} of your {quota}. Delete some of your songs to make room.',
  /** 429: renders waiting or running. */
  limitRenders: 'You already have the most clip renders waiting or running at once ({max}). Please wait for one to finish, then try again.',
  /** 429: transcriptions waiting or running. */
  limitTranscriptions: 'You already have the most transcriptions waiting or running at once ({max}). Please wait for one to finish, then try again.',
  /** 429: uploads one user has arriving at once (UPLOADS_PER_USER). */
  limitUploads: 'Too many uploads at once. Please wait for one to finish and try again.',
  /** 429: create-clip uploads one user has arriving at once (UPLOADS_PER_USER). */
  limitClipUploads: 'Too many clips are being uploaded at once. Please wait for one to finish and try again.',
  /** 429: AI playlists in the last minute. */
  limitAiPerMinute: 'You have made the most AI playlists allowed in a minute ({max}). Please try again in {seconds} s.',
} as const;

export type LimitMessageKey = keyof typeof limitMessagesEn;
export type LimitFigures = Record<string, string | number>;

/** The English answer of a limit, its figures filled in. */
export function limitMessage(key: LimitMessageKey, figures: LimitFigures): string {
  return limitMessagesEn[key].replace(/\{(\w+)\}/g, (match, name: string) => (name in figures ? String(figures[name]) : match));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each template as a pattern that gives back its figures, by name. */
const patterns = (Object.keys(limitMessagesEn) as LimitMessageKey[]).map((key) => {
  const names: string[] = [];
  const source = limitMessagesEn[key]
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return escape(part);
      names.push(name);
      return '([^\\n]+?)';
    })
    .join('');
  return { key, names, pattern: new RegExp(`^${source}$`) };
});

/** Which limit answered `message`, and its figures; null for any other message. */
export function parseLimitMessage(message: string): { key: LimitMessageKey; figures: Record<string, string> } | null {
  for (const { key, names, pattern } of patterns) {
    const match = pattern.exec(message);
    if (!match) continue;
    const figures: Record<string, string> = {};
    names.forEach((name, index) => (figures[name] = match[index + 1] ?? ''));
    return { key, figures };
  }
  return null;
}

/** A size as the web app shows sizes (B, KB or MB with one decimal; SPEC 9), GB past 1024 MB. */
export function formatLimitBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.max(0, Math.round(bytes))} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}
