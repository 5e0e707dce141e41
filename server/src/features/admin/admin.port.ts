import { definePort } from '../../modules/module.js';
import type { RemovedAccount } from './account-removal.service.js';

export type { RemovedAccount };

/** Deleting an account the way the admin page does (its uploads kept as the instance's unless asked). */
export interface AccountRemovalPort {
  remove(userId: number, options: { deleteUploads: boolean }): Promise<RemovedAccount>;
}

export const accountRemovalPort = definePort<AccountRemovalPort>(
  'account-removal',
  "Deletes an account as the admin page does: the last admin refused, its uploads kept as the instance's unless asked.",
);
