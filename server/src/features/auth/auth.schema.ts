// Tables of the auth module (accounts and their single-use links); only auth.repository.ts reads or writes them.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** What an account may do: an admin runs the instance (the /admin page); a user listens and uploads. */
export const userRoles = ['admin', 'user'] as const;
export type UserRole = (typeof userRoles)[number];

/** An account: a user name and e-mail, a password, a Google identity, or both. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    userName: text('user_name').notNull(),
    email: text('email').notNull(),
    /** Null for accounts that only ever signed in with Google. */
    passwordHash: text('password_hash'),
    googleSubject: text('google_subject'),
    /**
     * Bumped by a password reset or change: tokens and events tickets carrying an older version
     * are refused, and a trigger announces the bump on `encore_sessions` so open event streams end.
     */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * When the owner proved control of `email` (verification link, password reset link, or
     * Google vouching for it at account creation). Null: unverified; Google sign-in never links
     * to such an account. Changing the e-mail clears it.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The first account of an instance is its admin (see AuthRepository.create); admins make others. */
    role: text('role', { enum: userRoles }).notNull().default('user'),
    /** Set by an admin: no session, API key or app password of the account works while it is set; data kept. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** When a session of the account was last used, at most a few minutes stale (the admin page's "last seen"). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('users_role_check', sql`${t.role} in ('admin', 'user')`),
    uniqueIndex('users_user_name_lower_key').on(sql`lower(${t.userName})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_google_subject_key').on(t.googleSubject),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself only ever exists in the e-mail. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash), index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Single-use links that prove control of an address; only a SHA-256 of the token is kept. */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was mailed to: it verifies only while the account still has it. */
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('email_verification_tokens_hash_key').on(t.tokenHash), index('email_verification_tokens_user_idx').on(t.userId)],
);

/**
 * API keys of apps (OpenSubsonic apiKeyAuthentication). Only a SHA-256 of the key is kept: keys
 * are 32 random bytes, so a plain hash cannot be guessed back; the key is shown once.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_key_hash_key').on(t.keyHash), index('api_keys_user_idx').on(t.userId)],
);

/**
 * App passwords for Subsonic clients that sign in with a user name and a password or a
 * salted-MD5 token. The token scheme needs the password itself, so it is kept encrypted
 * (AES-256-GCM, a key derived from the server secret), never hashed; shown once.
 */
export const appPasswords = pgTable(
  'app_passwords',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** base64url of nonce (12 bytes) || ciphertext || GCM tag (16 bytes). */
    ciphertext: text('ciphertext').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('app_passwords_user_idx').on(t.userId)],
);

/**
 * Invitations an admin mailed (SIGNUP=invite): the link signs up one account, once, within 7
 * days. Only a SHA-256 of the token is kept; the token itself only ever exists in the e-mail.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    usedBy: integer('used_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('invitations_token_hash_key').on(t.tokenHash)],
);

/** Instance-wide settings an admin changes on the admin page (today: who may sign up); one row per key. */
export const instanceSettings = pgTable('instance_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Accounts' single sign-on identities (OpenID Connect): an issuer's subject belongs to one
 * account. A subject is only ever attached to an account created by that sign-in or, once,
 * to the account whose verified e-mail the issuer vouched for.
 */
export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The issuer identifier as the provider's discovery document states it. */
    issuer: text('issuer').notNull(),
    /** The `sub` claim: stable and unique within the issuer. */
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('oidc_identities_issuer_subject_key').on(t.issuer, t.subject), index('oidc_identities_user_idx').on(t.userId)],
);
