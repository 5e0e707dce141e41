// Tables of the discovery module (AI playlists); only discovery.repository.ts reads or writes them.
// catalog_version is discovery's too: it is the key of discovery's candidate cache, only discovery reads it,
// and no module's code writes it (statement triggers on songs and song_analyses bump it, migration 0010).
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { keyOf } from '../../platform/db/table-key.js';

/**
 * How loud a song plays (issue 30): BS.1770 integrated loudness of the stereo signal at 48 kHz
 * (a mono file counted on both channels, as players play it), loudness range, the sample peak
 * and a 4× oversampled true-peak estimate (linear, 1 = full scale), over `seconds` of audio;
 * or why it could not be measured. What ReplayGain is computed from.
 */
export type PlaybackLoudness = { integratedLufs: number; rangeLu: number; samplePeak: number; truePeak: number; seconds: number } | { failed: string };

/**
 * A song's sonic analysis (issue 12): 'analysed' with its features (the contract's
 * SongFeatures) and the similarity vector, or 'failed' with the reason (undecodable audio).
 * No row: not analysed yet.
 */
export const songAnalyses = pgTable(
  'song_analyses',
  {
    songId: integer('song_id')
      .primaryKey()
      .references(() => keyOf('songs'), { onDelete: 'cascade' }),
    status: text('status', { enum: ['analysed', 'failed'] }).notNull(),
    features: jsonb('features'),
    vector: jsonb('vector'),
    reason: text('reason'),
    /** Null until measured: rows analysed before loudness was measured for playback get it from the backfill. */
    loudness: jsonb('loudness').$type<PlaybackLoudness>(),
    analyserVersion: integer('analyser_version').notNull(),
    analysedAt: timestamp('analysed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('song_analyses_status_idx').on(t.status)],
);

/**
 * One row whose number goes up with every statement that changes songs or their analyses
 * (statement triggers, migration 0010): a process may keep what it derived from them (the AI
 * playlists' candidates) for as long as the number it read with them is current.
 */
export const catalogVersion = pgTable('catalog_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});
