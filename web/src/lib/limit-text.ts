import { parseLimitMessage } from '@encore/common/limit-messages';
import { translate } from './i18n/i18n.store';

/**
 * The server answers in English; a per-user limit's answer (common/limit-messages.ts: storage
 * full, renders or transcriptions at their limit, AI playlists a minute, uploads at once) is
 * shown in the user's language with the server's figures. Any other message stays as it is.
 */
export function localizedServerMessage(message: string): string {
  const limit = parseLimitMessage(message);
  return limit ? translate(limit.key, limit.figures) : message;
}
