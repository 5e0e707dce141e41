import { ConflictError, NotFoundError } from '../../platform/errors/app-errors.js';
import type { JobQueueAdmin, QueueCounts, QueuedJob } from '../../platform/jobs/job-queue.admin.js';
import type { Storage } from '../../platform/storage/storage.types.js';
import type { AccountAdministration, AccountRecord, InvitationRecord, SignUpMode, SignUpSetting, UserRole } from '../auth/auth.port.js';
import type { UploadUsage, SongOwners } from '../library/song-owners.port.js';
import type { MusicFolder, MusicFolders, ScanStatus } from '../music-folders/music-folders.port.js';
import type { AccountRemoval, RemovedAccount } from './account-removal.service.js';

/** An account with what it uploaded. */
export interface UserOverview extends AccountRecord {
  usage: UploadUsage;
}

export type StorageKind = 'songs' | 'covers' | 'clips' | 'transcodes';

/** The storage folders of each kind (clips: the renders and the pictures or videos they were made of). */
const STORAGE_PREFIXES: Record<StorageKind, readonly string[]> = {
  songs: ['songs/'],
  covers: ['covers/'],
  clips: ['clips/', 'clip-media/'],
  transcodes: ['transcodes/'],
};

/** How many jobs the queue panel lists. */
const JOBS_LISTED = 100;

export interface AdminServiceDeps {
  accounts: AccountAdministration;
  songs: SongOwners;
  musicFolders: MusicFolders;
  jobs: JobQueueAdmin;
  storage: Storage;
  removal: AccountRemoval;
}

/** What the admin page does, over the other modules' ports. */
export class AdminService {
  constructor(private readonly deps: AdminServiceDeps) {}

  async users(): Promise<UserOverview[]> {
    const [accounts, usage] = await Promise.all([this.deps.accounts.list(), this.deps.songs.usage()]);
    return accounts.map((account) => ({ ...account, usage: usage.get(account.id) ?? { songs: 0, bytes: 0 } }));
  }

  async user(id: number): Promise<UserOverview> {
    const account = await this.deps.accounts.get(id);
    if (!account) throw new NotFoundError('User not found.');
    const usage = (await this.deps.songs.usage()).get(id) ?? { songs: 0, bytes: 0 };
    return { ...account, usage };
  }

  async setRole(id: number, role: UserRole): Promise<UserOverview> {
    await this.deps.accounts.setRole(id, role);
    return this.user(id);
  }

  /** An admin cannot disable their own account (they would lock themselves out mid-click). */
  async setDisabled(actorId: number, id: number, disabled: boolean): Promise<UserOverview> {
    if (disabled && actorId === id) throw new ConflictError('You cannot disable your own account.');
    await this.deps.accounts.setDisabled(id, disabled);
    return this.user(id);
  }

  async sendPasswordReset(id: number): Promise<string> {
    const account = await this.deps.accounts.sendPasswordReset(id);
    return `A password reset link is on its way to ${account.email}.`;
  }

  deleteUser(id: number, deleteUploads: boolean): Promise<RemovedAccount> {
    return this.deps.removal.remove(id, { deleteUploads });
  }

  invitations(): Promise<InvitationRecord[]> {
    return this.deps.accounts.signUp.invitations();
  }

  invite(email: string, invitedBy: { id: number; userName: string }): Promise<InvitationRecord> {
    return this.deps.accounts.signUp.invite(email, invitedBy);
  }

  revokeInvitation(id: number): Promise<void> {
    return this.deps.accounts.signUp.revoke(id);
  }

  signUpSetting(): Promise<SignUpSetting> {
    return this.deps.accounts.signUp.setting();
  }

  setSignUpMode(mode: SignUpMode): Promise<SignUpSetting> {
    return this.deps.accounts.signUp.setMode(mode);
  }

  async musicFolders(): Promise<{ configured: boolean; folders: MusicFolder[]; scan: ScanStatus }> {
    const [folders, scan] = await Promise.all([this.deps.musicFolders.folders(), this.deps.musicFolders.status()]);
    return { configured: folders.length > 0, folders, scan };
  }

  scanNow(actorId: number): Promise<ScanStatus> {
    return this.deps.musicFolders.scanNow(actorId);
  }

  async queues(): Promise<{ queues: QueueCounts[]; jobs: QueuedJob[] }> {
    const [queues, jobs] = await Promise.all([this.deps.jobs.counts(), this.deps.jobs.jobs(JOBS_LISTED)]);
    return { queues, jobs };
  }

  async retryJob(queue: string, id: string): Promise<void> {
    if (!(await this.deps.jobs.retry(queue, id))) throw new NotFoundError('No failed job of that id in that queue.');
  }

  async cancelJob(queue: string, id: string): Promise<void> {
    if (!(await this.deps.jobs.cancel(queue, id))) throw new NotFoundError('No waiting or running job of that id in that queue.');
  }

  /** The bytes and objects under each kind's folders in storage (a listing: seconds on a very large S3 bucket). */
  async storage(): Promise<{ kinds: { kind: StorageKind; bytes: number; objects: number }[]; musicFolderSongs: number }> {
    const kinds = await Promise.all(
      (Object.keys(STORAGE_PREFIXES) as StorageKind[]).map(async (kind) => {
        let bytes = 0;
        let objects = 0;
        for (const prefix of STORAGE_PREFIXES[kind]) {
          for await (const object of this.deps.storage.list(prefix)) {
            bytes += object.size;
            objects += 1;
          }
        }
        return { kind, bytes, objects };
      }),
    );
    const folders = await this.deps.musicFolders.folders();
    return { kinds, musicFolderSongs: folders.reduce((sum, folder) => sum + folder.songs, 0) };
  }
}
