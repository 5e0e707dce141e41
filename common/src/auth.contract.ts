import { z } from 'zod';
import { checkEmail, checkForgotPassword, checkNewPassword, checkSignInPassword, checkUserName, type RuleResult } from './auth.rules.js';
import { defineEndpoint } from './endpoint.js';
import { idField, text as singleLine } from './input.contract.js';
import { authMessagesEn, ruleMessagesEn } from './messages.en.js';

/** Runs a shared rule inside a zod schema so the server answers with the rule's message. */
function rule<T>(check: (value: T) => RuleResult) {
  return (value: T, ctx: z.RefinementCtx) => {
    const key = check(value);
    if (key) ctx.addIssue({ code: 'custom', message: ruleMessagesEn[key] });
  };
}

const text = (label: string, requiredMessage: string) => singleLine(label, requiredMessage).max(10_000, { error: 'Value is too long' });

export const userNameField = text('Username', ruleMessagesEn.usernameRequired)
  .superRefine(rule(checkUserName))
  .transform((value) => value.trim());
export const emailField = text('Email', ruleMessagesEn.emailRequired)
  .superRefine(rule(checkEmail))
  .transform((value) => value.trim());

export const signInBody = z.object({
  userName: text('Username', ruleMessagesEn.usernameRequired)
    .superRefine(rule(checkUserName))
    .transform((v) => v.trim()),
  password: text('Password', ruleMessagesEn.passwordRequired).superRefine(rule(checkSignInPassword)),
  rememberMe: z.boolean().optional(),
});
export type SignInBody = z.input<typeof signInBody>;

export const signUpBody = z.object({
  userName: userNameField,
  email: text('Email', ruleMessagesEn.signupEmailRequired)
    .superRefine((value, ctx) => {
      if (!value.trim()) ctx.addIssue({ code: 'custom', message: ruleMessagesEn.signupEmailRequired });
      else rule(checkEmail)(value, ctx);
    })
    .transform((value) => value.trim()),
  password: text('Password', ruleMessagesEn.passwordRequired).superRefine(rule(checkNewPassword)),
  /** The token of an invitation link (`/signup?invitation=…`): needed when SIGNUP is invite. */
  invitation: singleLine('The invitation', authMessagesEn.invitationInvalid).trim().max(200, { error: authMessagesEn.invitationInvalid }).optional(),
});
export type SignUpBody = z.input<typeof signUpBody>;

/** Who may create an account: anyone (open), only with an admin's e-mailed invitation (invite), nobody (closed). */
export const signUpMode = z.enum(['open', 'invite', 'closed']);
export type SignUpMode = z.infer<typeof signUpMode>;

/** An invitation link's token, to show the sign-up form with its address filled in. */
export const invitationLookupBody = z.object({
  token: singleLine('The invitation', authMessagesEn.invitationInvalid)
    .trim()
    .min(1, { error: authMessagesEn.invitationInvalid })
    .max(200, { error: authMessagesEn.invitationInvalid }),
});
export type InvitationLookupBody = z.input<typeof invitationLookupBody>;
export const invitationLookupResponse = z.object({ email: z.string() });
export type InvitationLookupResponse = z.infer<typeof invitationLookupResponse>;

/**
 * Deleting one's own account: the password again (an account without one, made with Google or
 * single sign-on, types its user name instead).
 */
export const deleteAccountBody = z.object({
  password: singleLine('Password').max(10_000).optional(),
  userName: singleLine('Username').max(10_000).optional(),
});
export type DeleteAccountBody = z.input<typeof deleteAccountBody>;

export const publicUser = z.object({
  userName: z.string(),
  email: z.string(),
});
export type PublicUser = z.infer<typeof publicUser>;

export const signInResponse = z.object({ token: z.string(), user: publicUser });

/** Change the password with the current one (the profile page); answers with a fresh session token. */
export const changePasswordBody = z.object({
  currentPassword: text('Current password', 'Please enter your current password').superRefine(rule(checkSignInPassword)),
  newPassword: text('New password', ruleMessagesEn.resetPasswordRequired).superRefine(rule(checkNewPassword)),
});
export type ChangePasswordBody = z.input<typeof changePasswordBody>;
export type SignInResponse = z.infer<typeof signInResponse>;

export const signUpResponse = z.object({ message: z.string(), user: publicUser });
export type SignUpResponse = z.infer<typeof signUpResponse>;

export const googleLoginBody = z.object({
  credential: singleLine('The Google credential', 'A Google credential is required').min(1, { error: 'A Google credential is required' }).max(10_000),
});
export type GoogleLoginBody = z.input<typeof googleLoginBody>;

/** What an account may do: an admin runs the instance (the /admin page); a user listens and uploads. */
export const userRole = z.enum(['admin', 'user']);
export type UserRole = z.infer<typeof userRole>;

/** The signed-in user, with whether Encore has verified their e-mail address, and their role. */
export const profileResponse = publicUser.extend({ emailVerified: z.boolean(), role: userRole });
export type ProfileResponse = z.infer<typeof profileResponse>;

export const updateProfileBody = z
  .object({ userName: userNameField.optional(), email: emailField.optional() })
  .refine((body) => body.userName !== undefined || body.email !== undefined, {
    error: 'Nothing to update: send userName or email',
  });
export type UpdateProfileBody = z.input<typeof updateProfileBody>;

export const forgotPasswordBody = z
  .object({
    email: singleLine('Email').max(10_000).default(''),
    userName: singleLine('Username').max(10_000).default(''),
  })
  .superRefine((body, ctx) => {
    const key = checkForgotPassword(body.email, body.userName);
    if (key) ctx.addIssue({ code: 'custom', message: ruleMessagesEn[key] });
  })
  .transform((body) => ({ email: body.email.trim(), userName: body.userName.trim() }));
export type ForgotPasswordBody = z.input<typeof forgotPasswordBody>;

export const successResponse = z.object({ success: z.boolean(), message: z.string() });
export type SuccessResponse = z.infer<typeof successResponse>;

/** SPEC 7 spells this body in PascalCase; DECISIONS accepts camelCase too. */
export const resetPasswordBody = z
  .object({
    Email: singleLine('Email').max(10_000).optional(),
    Token: singleLine('The reset token').max(10_000).optional(),
    NewPassword: singleLine('Password').max(10_000).optional(),
    email: singleLine('Email').max(10_000).optional(),
    token: singleLine('The reset token').max(10_000).optional(),
    newPassword: singleLine('Password').max(10_000).optional(),
  })
  .transform((body) => ({
    email: (body.Email ?? body.email ?? '').trim(),
    token: (body.Token ?? body.token ?? '').trim(),
    newPassword: body.NewPassword ?? body.newPassword ?? '',
  }))
  .superRefine((body, ctx) => {
    if (!body.email || !body.token) {
      ctx.addIssue({ code: 'custom', message: 'This reset link is invalid or has expired.' });
      return;
    }
    if (!body.newPassword) {
      ctx.addIssue({ code: 'custom', message: ruleMessagesEn.resetPasswordRequired });
      return;
    }
    const key = checkNewPassword(body.newPassword);
    if (key) ctx.addIssue({ code: 'custom', message: ruleMessagesEn[key] });
  });
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

const VERIFY_LINK_INVALID = 'This verification link is invalid, expired or already used.';

/** The token of an e-mailed verification link (`/verify-email?token=...`). */
export const verifyEmailBody = z.object({
  token: singleLine('The verification link', VERIFY_LINK_INVALID).trim().min(1, { error: VERIFY_LINK_INVALID }).max(200, { error: VERIFY_LINK_INVALID }),
});
export type VerifyEmailBody = z.input<typeof verifyEmailBody>;

/** The most characters of an API key's or app password's name. */
export const APP_CREDENTIAL_NAME_MAX = 100;

/** Names an API key or app password, so its owner knows which app to revoke. */
export const appCredentialBody = z.object({
  name: singleLine('The name', 'Please enter a name')
    .trim()
    .min(1, { error: 'Please enter a name' })
    .max(APP_CREDENTIAL_NAME_MAX, { error: `The name can be at most ${APP_CREDENTIAL_NAME_MAX} characters` }),
});
export type AppCredentialBody = z.input<typeof appCredentialBody>;

/** An API key or app password in the list: never the secret. Times are ISO 8601. */
export const appCredential = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type AppCredential = z.infer<typeof appCredential>;

/** A new API key: the key is shown this once. */
export const createdApiKey = z.object({ id: z.number().int(), name: z.string(), key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** A new app password: the password is shown this once. */
export const createdAppPassword = z.object({ id: z.number().int(), name: z.string(), password: z.string() });
export type CreatedAppPassword = z.infer<typeof createdAppPassword>;

export const appCredentialList = z.array(appCredential);

export const apiKeyIdParams = z.object({ id: idField('The API key id') });
export const appPasswordIdParams = z.object({ id: idField('The app password id') });

const tags = ['auth'];

/** Accounts and sessions; the routes of a signed-in user say so where they are registered. */
export const authEndpoints = {
  signUp: defineEndpoint({
    method: 'POST',
    path: '/auth/signup',
    body: signUpBody,
    response: signUpResponse,
    status: 201,
    summary: 'Create an account (does not sign in)',
    tags,
  }),
  signIn: defineEndpoint({
    method: 'POST',
    path: '/auth/signin',
    body: signInBody,
    response: signInResponse,
    summary: 'Sign in with user name and password',
    tags,
  }),
  googleLogin: defineEndpoint({
    method: 'POST',
    path: '/auth/google-login',
    body: googleLoginBody,
    response: signInResponse,
    summary: 'Sign in with a Google ID token',
    tags,
  }),
  profile: defineEndpoint({ method: 'GET', path: '/auth/profile', response: profileResponse, summary: 'The signed-in user', tags }),
  invitation: defineEndpoint({
    method: 'POST',
    path: '/auth/invitation',
    body: invitationLookupBody,
    response: invitationLookupResponse,
    summary: "An invitation link's address, while the link is valid (404 otherwise)",
    tags,
  }),
  deleteAccount: defineEndpoint({
    method: 'DELETE',
    path: '/auth/account',
    body: deleteAccountBody,
    status: 204,
    summary: "Delete the signed-in user's account (password asked again; the last admin cannot)",
    tags,
  }),
  updateProfile: defineEndpoint({
    method: 'PUT',
    path: '/auth/profile',
    body: updateProfileBody,
    response: profileResponse,
    summary: 'Change user name or e-mail',
    tags,
  }),
  changePassword: defineEndpoint({
    method: 'PUT',
    path: '/auth/password',
    body: changePasswordBody,
    response: signInResponse,
    summary: 'Change the password with the current one; ends other sessions and answers with a new token',
    tags,
  }),
  forgotPassword: defineEndpoint({
    method: 'POST',
    path: '/email/forgot-password',
    body: forgotPasswordBody,
    response: successResponse,
    summary: 'E-mail a password reset link (same answer whether or not the account exists)',
    tags,
  }),
  resetPassword: defineEndpoint({
    method: 'POST',
    path: '/email/reset-password',
    body: resetPasswordBody,
    response: successResponse,
    summary: 'Set a new password with a reset token (also verifies the e-mail address)',
    tags,
  }),
  verifyEmail: defineEndpoint({
    method: 'POST',
    path: '/auth/verify-email',
    body: verifyEmailBody,
    response: successResponse,
    summary: 'Verify the e-mail address with the token of a verification link',
    tags,
  }),
  resendVerification: defineEndpoint({
    method: 'POST',
    path: '/auth/resend-verification',
    response: successResponse,
    summary: 'Mail a new verification link to the signed-in user',
    tags,
  }),
  apiKeys: defineEndpoint({
    method: 'GET',
    path: '/auth/api-keys',
    response: appCredentialList,
    summary: "The signed-in user's API keys for apps (names and dates, never the keys)",
    tags,
  }),
  createApiKey: defineEndpoint({
    method: 'POST',
    path: '/auth/api-keys',
    body: appCredentialBody,
    response: createdApiKey,
    status: 201,
    summary: 'Create a named API key for an app (OpenSubsonic apiKey); the key is answered only this once',
    tags,
  }),
  revokeApiKey: defineEndpoint({
    method: 'DELETE',
    path: '/auth/api-keys/:id',
    params: apiKeyIdParams,
    status: 204,
    summary: 'Revoke an API key; it stops working at once',
    tags,
  }),
  appPasswords: defineEndpoint({
    method: 'GET',
    path: '/auth/app-passwords',
    response: appCredentialList,
    summary: "The signed-in user's app passwords (names and dates, never the passwords)",
    tags,
  }),
  createAppPassword: defineEndpoint({
    method: 'POST',
    path: '/auth/app-passwords',
    body: appCredentialBody,
    response: createdAppPassword,
    status: 201,
    summary: 'Create a named app password for apps that sign in with a user name and password; answered only this once',
    tags,
  }),
  revokeAppPassword: defineEndpoint({
    method: 'DELETE',
    path: '/auth/app-passwords/:id',
    params: appPasswordIdParams,
    status: 204,
    summary: 'Revoke an app password; it stops working at once',
    tags,
  }),
};
