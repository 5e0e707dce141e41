/**
 * The profile page's ListenBrainz section (issue 30), in English. Its keys are message keys of
 * the app; `{name}` marks a value filled in at run time.
 */
export const listeningEn = {
  listenBrainzHeading: 'ListenBrainz',
  listenBrainzBody: 'Send what you play in Encore to your ListenBrainz profile. A song counts once it has played half its length or 4 minutes.',
  listenBrainzTokenLabel: 'User token',
  listenBrainzTokenHint: 'Copy it from {link} on ListenBrainz.',
  listenBrainzTokenHintLink: 'Settings → User token',
  listenBrainzConnect: 'Connect',
  listenBrainzConnected: 'ListenBrainz connected',
  listenBrainzConnectedAs: 'Connected as {userName}',
  listenBrainzLastSent: 'Last listen sent {date}',
  listenBrainzNothingSent: 'No listen sent yet',
  listenBrainzLastError: 'The last listen could not be sent: {error}',
  listenBrainzDisconnect: 'Disconnect',
  listenBrainzDisconnected: 'ListenBrainz disconnected',
  listenBrainzTokenRequired: 'Enter your ListenBrainz user token',
  listenBrainzTokenRefused: 'ListenBrainz did not accept this token',
  listenBrainzUnavailable: 'ListenBrainz could not be reached; try again later',
  listenBrainzLoadFailed: 'Failed to load your ListenBrainz connection',
  listenBrainzConnectFailed: 'Failed to connect ListenBrainz',
  listenBrainzDisconnectFailed: 'Failed to disconnect ListenBrainz',
} as const;
