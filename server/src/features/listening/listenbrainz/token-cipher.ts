import { UserSecretBox } from '../../../platform/crypto/user-secret-box.js';

/**
 * ListenBrainz user tokens at rest. The token must be sent to ListenBrainz as it is, so it is
 * encrypted (see UserSecretBox), never hashed. Changing JWT_SECRET makes stored tokens
 * unreadable: those users link again.
 */
export class TokenCipher extends UserSecretBox {
  constructor(serverKey: Uint8Array) {
    super(serverKey, 'encore:listenbrainz-tokens', 'listenbrainz-token');
  }
}
