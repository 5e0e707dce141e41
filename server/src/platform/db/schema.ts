/**
 * Every table, as one object: `drizzle(client, { schema })` takes a single schema, and `Db` is
 * typed by it. Each table is defined in its owner's `*.schema.ts`; drizzle-kit reads those files
 * (drizzle.config.ts) to generate the one ordered history of migrations under server/drizzle.
 */
export * from '../../features/auth/auth.schema.js';
export * from '../../features/library/library.schema.js';
export * from '../../features/sharing/sharing.schema.js';
export * from '../../features/playlists/playlists.schema.js';
export * from '../../features/lyrics/lyrics.schema.js';
export * from '../../features/clips/clips.schema.js';
export * from '../../features/discovery/discovery.schema.js';
export * from '../tasks/tasks.schema.js';
export * from '../jobs/jobs.schema.js';
export * from '../mail/mail.schema.js';
export * from '../rate-limit/rate-limit.schema.js';
export * from '../../features/music-folders/music-folders.schema.js';
export * from '../../features/listening/listening.schema.js';
export * from '../../features/bookmarks/bookmarks.schema.js';
export * from '../../features/radio/radio.schema.js';
export * from '../../features/smart-playlists/smart-playlists.schema.js';
