import path from 'node:path';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { SubsonicError } from './subsonic-errors.js';

/** The extensions that really work here, with their versions (songLyrics 2: word cues with `enhanced=true`). */
export const OPEN_SUBSONIC_EXTENSIONS = [
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'formPost', versions: [1] },
  { name: 'songLyrics', versions: [1, 2] },
  { name: 'transcodeOffset', versions: [1] },
] as const;

/** The upload library is folder 0; each music folder follows, from 1, in MUSIC_FOLDERS' order. */
export function musicFolders(paths: readonly string[]): { id: number; name: string }[] {
  return [{ id: 0, name: 'Uploads' }, ...paths.map((folder, index) => ({ id: index + 1, name: path.basename(folder) || folder }))];
}

export function systemEndpoints(deps: SubsonicDeps): SubsonicEndpoint[] {
  return [
    { name: 'ping', handle: async () => ({}) },
    { name: 'getLicense', handle: async () => ({ license: { valid: true } }) },
    {
      name: 'getOpenSubsonicExtensions',
      open: true,
      answer: () => ({ openSubsonicExtensions: OPEN_SUBSONIC_EXTENSIONS.map(({ name, versions }) => ({ name, versions: [...versions] })) }),
    },
    // getMusicFolders: subsonic-scan.routes.ts, from the music folders' port.
    {
      name: 'getUser',
      handle: async ({ params, user }) => {
        const asked = params.get('username') ?? user.userName;
        if (asked.toLowerCase() !== user.userName.toLowerCase()) throw new SubsonicError(50, 'You can only see your own user');
        const owner = await deps.accounts.account();
        return {
          user: {
            username: user.userName,
            email: user.email,
            scrobblingEnabled: false,
            adminRole: owner?.id === user.id,
            settingsRole: false,
            downloadRole: true,
            uploadRole: false,
            playlistRole: true,
            coverArtRole: false,
            commentRole: false,
            podcastRole: false,
            streamRole: true,
            jukeboxRole: false,
            shareRole: false,
            videoConversionRole: false,
            folder: musicFolders(deps.musicFolders).map((folder) => folder.id),
          },
        };
      },
    },
  ];
}
