import { z } from 'zod';
import { signInResponse } from './auth.contract.js';
import { defineEndpoint } from './endpoint.js';
import { text } from './input.contract.js';

/**
 * Single sign-on (issue 29): OpenID Connect through the provider's own pages, and sign-in by a
 * trusted reverse proxy's header. Both end in the same session token as a password sign-in.
 */

/** Where the web app should go after signing in: a path on this site (checked again by the web app). */
const nextPath = text('The return address').max(2000).optional();

export const oidcStartBody = z.object({
  next: nextPath,
  /** As the sign-in form's "Remember me": whether the session outlives the browser tab. */
  rememberMe: z.boolean().optional(),
});
export type OidcStartBody = z.input<typeof oidcStartBody>;

/** The provider's address to send the browser to; the answer also sets the short-lived state cookie. */
export const oidcStartResponse = z.object({ url: z.string() });
export type OidcStartResponse = z.infer<typeof oidcStartResponse>;

/**
 * What the provider sent the browser back to `/signin` with: the query string as it arrived
 * (`?code=…&state=…&iss=…`, or `?error=…`), checked whole by the server.
 */
export const oidcCallbackBody = z.object({ query: text('The answer of the provider', 'The answer of the provider is required').min(1).max(8192) });
export type OidcCallbackBody = z.input<typeof oidcCallbackBody>;

export const ssoSignInResponse = signInResponse.extend({
  /** Where the sign-in was started from (its `next`), `/` when none. */
  next: z.string(),
  /** What the session was asked to be: remembered across browser restarts or only this tab's. */
  rememberMe: z.boolean(),
});
export type SsoSignInResponse = z.infer<typeof ssoSignInResponse>;

/** The query parameters by which the web app knows the provider has sent the browser back. */
export const OIDC_CALLBACK_PARAMS = ['code', 'error'] as const;

const tags = ['auth'];

export const ssoEndpoints = {
  oidcStart: defineEndpoint({
    method: 'POST',
    path: '/auth/oidc/start',
    body: oidcStartBody,
    response: oidcStartResponse,
    summary: 'Begin an OpenID Connect sign-in: the provider address to open (sets the state cookie)',
    tags,
  }),
  oidcCallback: defineEndpoint({
    method: 'POST',
    path: '/auth/oidc/callback',
    body: oidcCallbackBody,
    response: ssoSignInResponse,
    summary: "Complete an OpenID Connect sign-in with the provider's answer (reads the state cookie)",
    tags,
  }),
  proxySignIn: defineEndpoint({
    method: 'POST',
    path: '/auth/proxy-signin',
    response: signInResponse,
    summary: "Sign in as the user a trusted reverse proxy's header names",
    tags,
  }),
};

/** What single sign-on answers when it does not sign in (tests and the web app compare with these). */
export const ssoMessagesEn = {
  notConfigured: 'Single sign-on is not configured on this server.',
  unavailable: 'Single sign-on is unavailable right now: the sign-in provider cannot be reached. Please try again in a moment.',
  expired: 'This sign-in took too long or was started in another browser. Please try again.',
  stateMismatch: 'This sign-in does not match the one this browser started, so it was stopped. Please try again.',
  refused: 'The sign-in provider did not sign you in: {reason}',
  codeRejected: 'The sign-in provider did not accept this sign-in (its code was already used or has expired). Please try again.',
  invalidAnswer: "The sign-in provider's answer could not be verified. Please try again, or ask the admin to check the single sign-on settings.",
  emailUnverifiedAtProvider:
    "An account with your e-mail address already exists on this Encore, but your sign-in provider does not say the address is verified, so Encore cannot tell that the account is yours. Sign in with your password instead, or ask the provider's admin to verify your address.",
  emailUnverifiedHere:
    "An account with your e-mail address already exists on this Encore, but that account's address has not been verified, so single sign-on cannot use it yet. We have e-mailed the address a link to reset that account's password (it names the account): resetting it proves the address is yours. Then sign in with SSO again.",
  linkedElsewhere: 'The Encore account with your e-mail address is already linked to another account at your sign-in provider.',
  noEmail: 'Your sign-in provider did not share your e-mail address, which an Encore account needs. Ask its admin to allow the "email" scope for Encore.',
  noAccount: 'No Encore account matches this sign-in, and this Encore does not create accounts from single sign-on. Ask its admin for an account.',
  proxyUntrusted: 'This request did not come through the trusted sign-in proxy.',
  proxyBadUser: "The sign-in proxy's user header does not name a valid user.",
  proxyRepeatedHeader:
    "The sign-in proxy sent its user or e-mail header more than once, so Encore cannot tell who is signing in. Check that the proxy replaces these headers rather than adding to the client's.",
  proxyNoEmail: 'The sign-in proxy did not send an e-mail address for this new user, which an Encore account needs.',
  proxyEmailTaken: 'The e-mail address the sign-in proxy sent belongs to another Encore account.',
} as const;
