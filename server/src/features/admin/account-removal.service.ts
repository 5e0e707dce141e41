import type { AccountAdministration } from '../auth/auth.port.js';
import type { SongOwners } from '../library/song-owners.port.js';

export interface RemovedAccount {
  songsKept: number;
  songsDeleted: number;
}

/**
 * Deleting an account, by an admin or by its owner: its uploads stay in the collection as the
 * instance's (owner none, as music-folder songs) unless `deleteUploads`; then the account row
 * goes, and with it, by foreign key, its playlists, likes, clips, share links, listening
 * history, tasks, API keys and app passwords. Files that only those rows referenced (clip
 * renders, deleted songs' audio and covers) go at the next orphan sweep.
 */
export class AccountRemoval {
  constructor(private readonly deps: { accounts: AccountAdministration; songs: SongOwners }) {}

  async remove(userId: number, options: { deleteUploads: boolean }): Promise<RemovedAccount> {
    const { accounts, songs } = this.deps;
    // Refused before anything is touched when it would fail (unknown, the last admin).
    const account = await accounts.assertDeletable(userId);
    // Its sessions, keys and app passwords stop now, while its data is removed.
    if (!account.disabled) await accounts.setDisabled(userId, true);
    const songsDeleted = options.deleteUploads ? await songs.removeAll(userId) : 0;
    const songsKept = options.deleteUploads ? 0 : await songs.release(userId);
    await accounts.delete(userId);
    return { songsKept, songsDeleted };
  }
}
