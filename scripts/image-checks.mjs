// The checks of scripts/test-image.sh against a running container:
//   first <base> <song>: healthy, sign-up, an upload plays, the music folder is scanned.
//   again <base> <song>: after a restart, the account, the upload and the folder song are still there.
import { readFile } from 'node:fs/promises';

const [phase, base, songFile] = process.argv.slice(2);
const user = { userName: 'imagetest', email: 'imagetest@example.com', password: 'image test password 1' };

async function until(what, check, seconds = 300) {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function call(path, init = {}, token) {
  const headers = {
    ...(init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...init.headers,
  };
  return fetch(new URL(path, base), { ...init, headers });
}

function ok(condition, message) {
  if (!condition) throw new Error(message);
  process.stdout.write(`  ok: ${message}\n`);
}

const health = await until('healthy', async () => {
  const response = await call('/api/health');
  return response.status === 200 ? response.json() : undefined;
});
ok(health, `healthy (${JSON.stringify(health).slice(0, 120)})`);

if (phase === 'first') {
  const signUp = await call('/api/auth/signup', { method: 'POST', body: JSON.stringify(user) });
  ok(signUp.status < 300, `sign-up answered ${signUp.status}`);
}
const signIn = await call('/api/auth/signin', { method: 'POST', body: JSON.stringify({ userName: user.userName, password: user.password }) });
ok(signIn.status === 200, `sign-in answered ${signIn.status}`);
const { token } = await signIn.json();
const bytes = await readFile(songFile);

if (phase === 'first') {
  const presign = await call(`/api/upload/presigned-url?fileName=upload.mp3&contentType=audio%2Fmpeg`, {}, token);
  const { url, key } = await presign.json();
  const put = await fetch(new URL(url, base), { method: 'PUT', headers: { 'content-type': 'audio/mpeg' }, body: bytes });
  ok(put.status < 300, `upload PUT answered ${put.status}`);
  const complete = await call(
    '/api/upload/upload-complete',
    { method: 'POST', body: JSON.stringify({ fileName: 'upload.mp3', s3key: key, fileType: 'audio/mpeg', size: bytes.length, folderId: 0 }) },
    token,
  );
  ok(complete.status < 300, `upload-complete answered ${complete.status}`);
}

const songs = await until('the uploaded and the folder song', async () => {
  const list = await (await call('/api/files?limit=100', {}, token)).json();
  return list.some((song) => song.title === 'Folder Song') && list.some((song) => song.fileName === 'upload.mp3') ? list : undefined;
});
ok(true, 'the music folder was scanned: "Folder Song" is in the library');
const uploaded = songs.find((song) => song.fileName === 'upload.mp3');
const play = await (await call(`/api/files/${uploaded.id}/play`, {}, token)).json();
const played = Buffer.from(await (await fetch(new URL(play.url, base))).arrayBuffer());
ok(played.equals(bytes), 'the uploaded song plays, byte for byte');
const folderSong = songs.find((song) => song.title === 'Folder Song');
const folderPlay = await (await call(`/api/files/${folderSong.id}/play`, {}, token)).json();
const folderBytes = await (await fetch(new URL(folderPlay.url, base))).arrayBuffer();
ok(folderBytes.byteLength > 1000, 'the folder song plays');
