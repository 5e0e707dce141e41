import { UserSecretBox } from '../../platform/crypto/user-secret-box.js';

/**
 * Share link tokens, sealed for their sender: the database finds a link by the token's SHA-256,
 * and only the sender's list (getShares) opens the token again to show the link. A leaked table
 * without the server secret opens no link. Changing JWT_SECRET hides the older links' addresses
 * from the list; the links keep working.
 */
export class ShareTokenBox extends UserSecretBox {
  constructor(serverKey: Uint8Array) {
    super(serverKey, 'encore:share-links', 'share-link');
  }
}
