import type { AuthenticatedUser } from '../auth/auth.port.js';
import type { ShareLinkRecord, ShareLinks } from '../sharing/sharing.port.js';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { missingParameter, notFound, SubsonicError } from './subsonic-errors.js';
import { parseId, songIdOf, type SubsonicParams } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';

const ONE_SONG = 'An Encore share link plays one song: share each song on its own';

/** A share's id as a number; anything else names no share (70, as another user's does). */
function shareIdOf(raw: string): number {
  const id = songIdOf(raw);
  if (id === undefined) throw notFound('Share');
  return id;
}

/** `expires` in milliseconds since 1970: absent → undefined, 0 → null ("never", which Encore caps), else the date. */
function expiresOf(params: SubsonicParams): Date | null | undefined {
  const raw = params.get('expires');
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) throw new SubsonicError(0, 'Parameter expires must be a whole number (milliseconds since 1970)');
  const ms = Number(raw.trim());
  return ms === 0 ? null : new Date(ms);
}

/**
 * Shares: Encore's share links (a public page that plays a song without an account, and
 * expires), made, listed, changed and deleted by their sender. A link plays one song; `expires`
 * 0 ("never") is the longest a link may live (a year), since links always expire.
 */
export function shareEndpoints(deps: SubsonicDeps, links: ShareLinks): SubsonicEndpoint[] {
  const elements = async (user: AuthenticatedUser, records: readonly ShareLinkRecord[]): Promise<SubsonicObject[]> => {
    const shown = records.filter((record) => record.url !== null);
    const songs = await deps.entries.songsByIds(user.id, [...new Set(shown.map((record) => record.songId))]);
    const songById = new Map(songs.map((song) => [song['id'], song]));
    return shown.map((record) => ({
      id: String(record.id),
      url: record.url ?? '',
      description: record.description ?? undefined,
      username: user.userName,
      created: record.createdAt,
      expires: record.expiresAt,
      lastVisited: record.lastVisitedAt ?? undefined,
      visitCount: record.visitCount,
      entry: [songById.get(String(record.songId))],
    }));
  };
  return [
    { name: 'getShares', handle: async ({ user }) => ({ shares: { share: await elements(user, await links.list(user.id)) } }) },
    {
      name: 'createShare',
      handle: async ({ params, user }) => {
        const ids = params.all('id').filter((raw) => raw !== '');
        if (ids.length === 0) throw missingParameter('id');
        if (ids.length > 1) throw new SubsonicError(0, ONE_SONG);
        const id = parseId(ids[0] ?? '');
        if (id.kind === 'album' || id.kind === 'artist') throw new SubsonicError(0, ONE_SONG);
        if (id.kind !== 'song') throw notFound('Song');
        const expires = expiresOf(params);
        const record = await links.create(user.id, id.id, { description: params.get('description'), expiresAt: expires ?? undefined });
        return { shares: { share: await elements(user, [record]) } };
      },
    },
    {
      name: 'updateShare',
      handle: async ({ params, user }) => {
        await links.update(user.id, shareIdOf(params.require('id')), { description: params.get('description'), expiresAt: expiresOf(params) });
        return {};
      },
    },
    {
      name: 'deleteShare',
      handle: async ({ params, user }) => {
        await links.delete(user.id, shareIdOf(params.require('id')));
        return {};
      },
    },
  ];
}
