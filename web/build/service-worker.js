/* global self, caches, __ENCORE_SW_SHELL__ */
/* Encore's service worker (issue 30). The build (service-worker.plugin.ts) fills in the version
 * and the files of the app shell and writes it to dist/sw.js.
 *
 * - The app shell (index.html, scripts, styles, icons) is cached at install, so the app opens
 *   without a network; pages load from the network first and fall back to the cached shell.
 * - API reads go to the network; when it cannot be reached they are answered from what a
 *   "Save for offline" stored (a playlist, its songs' details), else with a 503 `{message}`.
 * - The profile read at start-up is remembered per token (a hash of it), so a signed-in user
 *   opening the app offline stays signed in.
 * - Songs saved for offline are in the cache `encore-offline-songs`; the page reads them itself.
 */
const VERSION = '__ENCORE_SW_VERSION__';
const SHELL = __ENCORE_SW_SHELL__;
const SHELL_CACHE = `encore-shell-${VERSION}`;
const API_CACHE = 'encore-offline-api';
const PROFILE_PREFIX = '/__offline/profile/';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(SHELL.map((path) => new Request(path, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith('encore-shell-') && name !== SHELL_CACHE).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

async function hashOf(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function offlineAnswer() {
  return new Response(JSON.stringify({ message: 'You are offline.' }), { status: 503, headers: { 'content-type': 'application/json' } });
}

async function page(request) {
  try {
    return await fetch(request);
  } catch {
    const cache = await caches.open(SHELL_CACHE);
    return (await cache.match('/index.html')) ?? Response.error();
  }
}

async function shellFile(request) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  return fetch(request);
}

async function profile(request) {
  const auth = request.headers.get('authorization');
  const key = auth ? PROFILE_PREFIX + (await hashOf(auth)) : null;
  try {
    const response = await fetch(request);
    if (key && response.ok) {
      const cache = await caches.open(API_CACHE);
      await cache.put(key, response.clone());
    }
    return response;
  } catch {
    if (!key) return offlineAnswer();
    const cached = await (await caches.open(API_CACHE)).match(key);
    return cached ?? offlineAnswer();
  }
}

async function apiRead(request) {
  try {
    return await fetch(request);
  } catch {
    const url = new URL(request.url);
    const cached = await (await caches.open(API_CACHE)).match(url.pathname + url.search);
    return cached ?? offlineAnswer();
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(request));
    return;
  }
  if (url.pathname.startsWith('/api/')) {
    // Streams (songs, task events) and stored files go straight to the network.
    if (url.pathname.startsWith('/api/storage/') || (request.headers.get('accept') ?? '').includes('text/event-stream')) return;
    event.respondWith(url.pathname === '/api/auth/profile' ? profile(request) : apiRead(request));
    return;
  }
  if (url.pathname.startsWith('/rest/')) return;
  event.respondWith(shellFile(request));
});
