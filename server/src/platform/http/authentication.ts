import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../errors/app-errors.js';

export interface RequestUser {
  id: number;
  userName: string;
  email: string;
  /** The account's role when the request was authenticated ('admin' runs the instance). */
  role: 'admin' | 'user';
  /** Whether the bearer token was issued for "remember me" (the long lifetime). */
  remember: boolean;
  /** The bearer token's version and expiry, for credentials that must end with this session. */
  tokenVersion: number;
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: 401 unless a valid bearer token comes with the request. */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    user: RequestUser | null;
    /** The signed-in user; only call it behind requireUser. */
    currentUser(): RequestUser;
  }
}

export function installAuthentication(app: FastifyInstance, authenticate: (token: string) => Promise<RequestUser>): void {
  app.decorateRequest('user', null);
  app.decorateRequest('currentUser', function (this: FastifyRequest) {
    if (!this.user) throw new UnauthorizedError();
    return this.user;
  });
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw new UnauthorizedError();
    request.user = await authenticate(match[1]);
  });
}
