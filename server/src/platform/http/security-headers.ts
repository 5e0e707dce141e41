import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

const GOOGLE_GSI = 'https://accounts.google.com/gsi/';

/**
 * Security headers with a content policy that admits only what Encore loads, on every answer
 * (404s and errors included). Helmet's middleware is built once: building it parses the
 * policy, which @fastify/helmet did again on every request (about 60 µs of each).
 */
export function installSecurityHeaders(app: FastifyInstance, extraMediaOrigins: string[]): void {
  const setHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' compiles WebAssembly (libass in the clip editor's preview), never JS from strings.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", `${GOOGLE_GSI}client`],
        // The preview's libass worker is a script of our own.
        workerSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'", `${GOOGLE_GSI}style`],
        frameSrc: [GOOGLE_GSI],
        connectSrc: ["'self'", GOOGLE_GSI, ...extraMediaOrigins],
        imgSrc: ["'self'", 'data:', 'blob:', 'https://lh3.googleusercontent.com', ...extraMediaOrigins],
        // Internet radio stations (issue 41) are streams of any site their admins list, played
        // straight from there: audio may come from any http(s) origin (it cannot run script).
        mediaSrc: ["'self'", 'blob:', 'http:', 'https:', ...extraMediaOrigins],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // Google's sign-in pop-up talks back to this window.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}
