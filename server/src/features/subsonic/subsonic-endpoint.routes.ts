import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../platform/logger.js';
import type { Storage } from '../../platform/storage/storage.types.js';
import type { Accounts, AuthenticatedUser, ClientAuthentication } from '../auth/auth.port.js';
import type { SongBrowse, SongCatalogue } from '../library/library.port.js';
import type { Listening } from '../listening/listening.port.js';
import type { SongLyrics } from '../lyrics/lyrics.port.js';
import type { UserPlaylists } from '../playlists/playlists.port.js';
import type { UserSmartPlaylists } from '../smart-playlists/smart-playlists.port.js';
import type { SubsonicEntries } from './subsonic-entries.js';
import type { SubsonicParams } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';

/** What the endpoints use: the ports of other modules and the platform's storage. */
export interface SubsonicDeps {
  clientAuthentication: ClientAuthentication;
  catalogue: SongCatalogue;
  browse: SongBrowse;
  lyrics: SongLyrics;
  playlists: UserPlaylists;
  /** Smart playlists: listed and played, read-only (ids `smart-<n>`). */
  smartPlaylists: UserSmartPlaylists;
  listening: Listening;
  /** Song and album elements with the viewer's plays and ratings, read once per answer. */
  entries: SubsonicEntries;
  accounts: Accounts;
  storage: Storage;
  /** MUSIC_FOLDERS, in order (folder ids from 1; 0 is the uploads). */
  musicFolders: readonly string[];
  serverVersion: string;
  /** Where a person makes app passwords and API keys (the profile page), for credential errors. */
  helpUrl: string;
  logger: Logger;
}

/** One call: its parameters, who made it, and the HTTP objects for media answers. */
export interface SubsonicCall {
  params: SubsonicParams;
  user: AuthenticatedUser;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Returned by a handler that answered itself (bytes of a song or a cover). */
export const SENT = Symbol('sent');

/** An endpoint of the API; `open` ones answer without credentials (getOpenSubsonicExtensions). */
export type SubsonicEndpoint =
  | { name: string; open?: false; handle(call: SubsonicCall): Promise<SubsonicObject | typeof SENT> }
  | { name: string; open: true; answer(params: SubsonicParams): SubsonicObject };
