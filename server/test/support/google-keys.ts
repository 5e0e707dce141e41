import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

/**
 * A stand-in for Google's key endpoint on loopback: serves a JWKS and signs ID tokens with the
 * matching private key, so the server's real verification code runs unchanged.
 */
export interface GoogleKeyServer {
  jwksUrl: string;
  sign(
    claims: Record<string, unknown>,
    options?: { audience?: string; issuer?: string; expiresIn?: string | number; key?: 'trusted' | 'stranger' },
  ): Promise<string>;
  close(): Promise<void>;
}

export async function startGoogleKeyServer(): Promise<GoogleKeyServer> {
  const trusted = await generateKeyPair('RS256', { extractable: true });
  const stranger = await generateKeyPair('RS256', { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(trusted.publicKey)), kid: 'trusted-key', alg: 'RS256', use: 'sig' };
  const server = http.createServer((request, response) => {
    if (request.url === '/oauth2/v3/certs') {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' });
      response.end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    async sign(claims, options = {}) {
      const key: CryptoKey = options.key === 'stranger' ? stranger.privateKey : trusted.privateKey;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'trusted-key', typ: 'JWT' })
        .setIssuer(options.issuer ?? 'https://accounts.google.com')
        .setAudience(options.audience ?? 'encore-test-client.apps.googleusercontent.com')
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '1h')
        .sign(key);
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
