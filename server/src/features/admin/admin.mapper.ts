import type { AdminUser, Invitation } from '@encore/common/admin.contract';
import type { InvitationRecord } from '../auth/auth.port.js';
import type { UserOverview } from './admin.service.js';

export function toAdminUser(user: UserOverview, viewerId: number): AdminUser {
  return {
    id: user.id,
    userName: user.userName,
    email: user.email,
    role: user.role,
    emailVerified: user.emailVerified,
    disabled: user.disabled,
    hasPassword: user.hasPassword,
    createdAt: user.createdAt.toISOString(),
    lastSeenAt: user.lastSeenAt?.toISOString() ?? null,
    songs: user.usage.songs,
    storageBytes: user.usage.bytes,
    isYou: user.id === viewerId,
  };
}

export function toInvitation(invitation: InvitationRecord): Invitation {
  return {
    id: invitation.id,
    email: invitation.email,
    state: invitation.state,
    invitedBy: invitation.invitedBy,
    usedBy: invitation.usedBy,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}
