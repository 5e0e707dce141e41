import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminEndpoints } from '@encore/common/admin.contract';
import { ssoEndpoints } from '@encore/common/sso.contract';
import { authEndpoints } from '@encore/common/auth.contract';
import { clipsEndpoints } from '@encore/common/clips.contract';
import { discoveryEndpoints } from '@encore/common/discovery.contract';
import type { Endpoint } from '@encore/common/endpoint';
import { systemEndpoints } from '@encore/common/http.contract';
import { libraryEndpoints, sharingEndpoints, uploadEndpoints } from '@encore/common/library.contract';
import { listeningEndpoints } from '@encore/common/listening.contract';
import { lyricsEndpoints } from '@encore/common/lyrics.contract';
import { browseEndpoints } from '@encore/common/browse.contract';
import { musicFolderEndpoints } from '@encore/common/music-folders.contract';
import { playlistsEndpoints } from '@encore/common/playlists.contract';
import { bookmarksEndpoints } from '@encore/common/bookmarks.contract';
import { radioEndpoints } from '@encore/common/radio.contract';
import { smartPlaylistsEndpoints } from '@encore/common/smart-playlist.contract';
import { tasksEndpoints } from '@encore/common/tasks.contract';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface OpenApi {
  paths: Record<string, Record<string, { tags?: string[]; summary?: string }>>;
}

/**
 * The operations the API publishes (the signed storage links of local storage aside). Routes are
 * registered from the endpoint declarations in common/, so a declaration that is dropped, renamed
 * or given another method shows up here.
 */
const operations = [
  'DELETE /api/clips/{id}',
  'DELETE /api/files/{id}',
  'DELETE /api/playlists/{id}',
  'DELETE /api/playlists/{id}/songs/{songId}',
  'DELETE /api/profile/listenbrainz',
  'GET /api/clips',
  'GET /api/clips/clip-status/{task_id}',
  'GET /api/clips/fonts/{file}',
  'GET /api/config',
  'GET /api/files',
  'GET /api/files/extract-image',
  'GET /api/files/{id}',
  'GET /api/files/{id}/download',
  'GET /api/files/{id}/lyrics',
  'GET /api/files/{id}/lyrics/export',
  'GET /api/files/{id}/lyrics/online',
  'GET /api/files/{id}/lyrics/transcription',
  'GET /api/files/{id}/play',
  'GET /api/health',
  'GET /api/music-folders',
  'GET /api/player/history',
  'GET /api/player/queue',
  'GET /api/profile/listenbrainz',
  'GET /api/playlists',
  'GET /api/playlists/{id}',
  'GET /api/playlists/{id}/m3u8',
  'GET /api/share/{token}',
  'GET /api/tasks/events',
  'GET /api/tasks/{id}',
  'GET /api/upload/presigned-url',
  'GET /api/ai/analysis-progress',
  'GET /api/albums',
  'GET /api/albums/{id}',
  'GET /api/albums/{id}/download',
  'GET /api/artists',
  'GET /api/artists/{id}',
  'GET /api/genres',
  'POST /api/auth/google-login',
  'POST /api/auth/resend-verification',
  'POST /api/auth/signin',
  'POST /api/auth/signup',
  'POST /api/auth/verify-email',
  'POST /api/clips/create-clip',
  'POST /api/email/forgot-password',
  'POST /api/email/reset-password',
  'POST /api/email/send-song-link',
  'POST /api/files/{id}/like',
  'POST /api/files/{id}/plays',
  'POST /api/files/{id}/lyrics/online',
  'POST /api/files/{id}/lyrics/transcription',
  'POST /api/files/{id}/transcribe',
  'POST /api/music-folders/scan',
  'POST /api/playlists',
  'POST /api/playlists/generate-playlist-by-prompt',
  'POST /api/playlists/{id}/import',
  'POST /api/playlists/{id}/songs',
  'POST /api/songs/{id}/more-like-this',
  'POST /api/tasks/events-ticket',
  'POST /api/tasks/{id}/cancel',
  'POST /api/transcribe_song',
  'POST /api/upload/upload-complete',
  'PUT /api/auth/password',
  'PUT /api/auth/profile',
  'PUT /api/files/{id}/lyrics',
  'PUT /api/player/queue',
  'PUT /api/profile/listenbrainz',
  'PUT /api/playlists/{id}',
  'PATCH /api/playlists/{id}',
  'PUT /api/playlists/{id}/songs',
  'GET /api/auth/profile',
  'GET /api/auth/api-keys',
  'POST /api/auth/api-keys',
  'DELETE /api/auth/api-keys/{id}',
  'GET /api/auth/app-passwords',
  'POST /api/auth/app-passwords',
  'DELETE /api/auth/app-passwords/{id}',
  'POST /api/auth/invitation',
  'DELETE /api/auth/account',
  'POST /api/auth/oidc/start',
  'POST /api/auth/oidc/callback',
  'POST /api/auth/proxy-signin',
  'GET /api/admin/users',
  'PUT /api/admin/users/{id}/role',
  'PUT /api/admin/users/{id}/disabled',
  'POST /api/admin/users/{id}/password-reset',
  'DELETE /api/admin/users/{id}',
  'GET /api/admin/invitations',
  'POST /api/admin/invitations',
  'DELETE /api/admin/invitations/{id}',
  'GET /api/admin/settings',
  'PUT /api/admin/settings',
  'GET /api/admin/music-folders',
  'POST /api/admin/music-folders/scan',
  'GET /api/admin/queues',
  'POST /api/admin/queues/{queue}/jobs/{id}/retry',
  'POST /api/admin/queues/{queue}/jobs/{id}/cancel',
  'GET /api/admin/storage',
  'GET /api/smart-playlists',
  'POST /api/smart-playlists',
  'GET /api/smart-playlists/{id}',
  'PUT /api/smart-playlists/{id}',
  'DELETE /api/smart-playlists/{id}',
  'GET /api/smart-playlists/{id}/songs',
  'POST /api/smart-playlists/preview',
  'POST /api/smart-playlists/import',
  'GET /api/smart-playlists/{id}/nsp',
  'GET /api/smart-playlists/{id}/m3u8',
  'GET /api/radio-stations',
  'POST /api/radio-stations',
  'PUT /api/radio-stations/{id}',
  'DELETE /api/radio-stations/{id}',
  'GET /api/radio-stations/{id}/now-playing',
  'GET /api/bookmarks/{songId}',
  'PUT /api/bookmarks/{songId}',
  'DELETE /api/bookmarks/{songId}',
];

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: OpenApi;

  beforeAll(async () => {
    t = await startTestApp('pglite');
    document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
  });
  afterAll(async () => t?.close());

  it('publishes each endpoint declared in common/ as one operation, with its summary and tags', () => {
    const declared: Endpoint[] = [
      systemEndpoints,
      authEndpoints,
      libraryEndpoints,
      uploadEndpoints,
      sharingEndpoints,
      playlistsEndpoints,
      lyricsEndpoints,
      clipsEndpoints,
      discoveryEndpoints,
      tasksEndpoints,
      musicFolderEndpoints,
      listeningEndpoints,
      adminEndpoints,
      ssoEndpoints,
      browseEndpoints,
      smartPlaylistsEndpoints,
      radioEndpoints,
      bookmarksEndpoints,
    ].flatMap((group) => Object.values(group));
    const names = declared.map((endpoint) => `${endpoint.method} /api${endpoint.path.replace(/:(\w+)/g, '{$1}')}`);
    expect([...names].sort()).toEqual([...operations].sort());
    for (const endpoint of declared) {
      const operation = document.paths[`/api${endpoint.path.replace(/:(\w+)/g, '{$1}')}`]?.[endpoint.method.toLowerCase()];
      expect(operation, endpoint.path).toMatchObject({ summary: endpoint.summary, tags: [...endpoint.tags] });
    }
  });

  it('publishes every operation of the API, each with a summary and a tag', () => {
    const published = Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
    );
    expect(
      published
        .map(({ name }) => name)
        .filter((name) => !name.includes(' /api/storage/'))
        .sort(),
    ).toEqual([...operations].sort());
    for (const { name, operation } of published.filter(({ name }) => !name.includes(' /api/storage/'))) {
      expect(operation.summary, name).toBeTruthy();
      expect(operation.tags?.length, name).toBeGreaterThan(0);
    }
  });
});
