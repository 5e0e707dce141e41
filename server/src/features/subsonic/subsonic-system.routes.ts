import path from 'node:path';
import type { SubsonicEndpoint } from './subsonic-endpoint.routes.js';

/**
 * The extensions that really work here, with their versions (songLyrics 2: word cues with
 * `enhanced=true`); a test checks each against the calls it brings.
 */
export const OPEN_SUBSONIC_EXTENSIONS = [
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'formPost', versions: [1] },
  { name: 'indexBasedQueue', versions: [1] },
  { name: 'songLyrics', versions: [1, 2] },
  { name: 'transcodeOffset', versions: [1] },
] as const;

/** The upload library is folder 0; each music folder follows, from 1, in MUSIC_FOLDERS' order. */
export function musicFolders(paths: readonly string[]): { id: number; name: string }[] {
  return [{ id: 0, name: 'Uploads' }, ...paths.map((folder, index) => ({ id: index + 1, name: path.basename(folder) || folder }))];
}

export function systemEndpoints(): SubsonicEndpoint[] {
  return [
    { name: 'ping', handle: async () => ({}) },
    { name: 'getLicense', handle: async () => ({ license: { valid: true } }) },
    {
      name: 'getOpenSubsonicExtensions',
      open: true,
      answer: () => ({ openSubsonicExtensions: OPEN_SUBSONIC_EXTENSIONS.map(({ name, versions }) => ({ name, versions: [...versions] })) }),
    },
    // getMusicFolders: subsonic-scan.routes.ts, from the music folders' port. Users: subsonic-users.routes.ts.
    // tokenInfo (apiKeyAuthentication): whose key this is; the same answer for any credentials a call carries.
    { name: 'tokenInfo', handle: async ({ user }) => ({ tokenInfo: { username: user.userName } }) },
  ];
}
