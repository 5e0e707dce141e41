# Encore's container image: `docker build -t encore .` then see compose.yaml.
# The base is a build argument so the image can be built from any Debian with Node 22 or 24
# (scripts/test-image.sh builds it from a base made by mmdebstrap, without a registry).
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency (dev ones too), then the three builds -----------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
COPY package.json package-lock.json .npmrc ./
COPY common/package.json common/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci
COPY tsconfig.base.json ./
COPY common common
COPY server server
COPY web web
RUN npm run build

# ---- deps: the server's production dependencies only ---------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
COPY package.json package-lock.json .npmrc ./
COPY common/package.json common/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# Debian's ffmpeg is used (FFMPEG_PATH below): the npm-shipped one (66 MB) goes. onnxruntime-node
# ships every platform's binaries (290 MB) and koffi 18 platforms' (28 MB): only this one's stay.
# onnxruntime-web (141 MB) is for browsers: the Node build of @huggingface/transformers carries
# what it uses of it inline. Source maps, type declarations and READMEs (~40 MB) are never
# loaded; node-wav ships its test recordings (7 MB).
RUN npm ci --omit=dev -w @encore/server -w @encore/common \
 && rm -rf node_modules/@ffmpeg-installer/linux-* node_modules/onnxruntime-web \
 && arch="$(node -p process.arch)" \
 && find node_modules/onnxruntime-node/bin -mindepth 2 -maxdepth 2 ! -name linux -exec rm -rf {} + \
 && find node_modules/onnxruntime-node/bin -mindepth 3 -maxdepth 3 ! -name "$arch" -exec rm -rf {} + \
 && find node_modules/koffi/build/koffi -mindepth 1 -maxdepth 1 ! -name "linux_$arch" -exec rm -rf {} + \
 && rm -f node_modules/node-wav/x.json node_modules/node-wav/file.wav \
 && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' -o -iname '*.md' \) -delete \
 && rm -rf /root/.npm

# ---- runtime -----------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# Debian's ffmpeg (clips, transcodes, analysis); DejaVu for clip text; no recommends, no
# downloaded packages, documentation or translations (licences stay), whatever the base kept. No
# npm, corepack or yarn either: Encore runs as `node server/dist/main.js <command>`. ffmpeg's packages pull in OpenGL drivers with
# LLVM, Z3 and Perl (~210 MB) that ffmpeg never links or loads (no GL context, no Perl script):
# they go, and the same step proves that ffmpeg still encodes H.264 and Opus with libass text.
RUN printf '%s\n' 'path-exclude=/usr/share/doc/*' 'path-include=/usr/share/doc/*/copyright' \
      'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/info/*' \
      'path-exclude=/usr/share/locale/*' 'path-include=/usr/share/locale/locale.alias' \
      > /etc/dpkg/dpkg.cfg.d/encore-slim \
 && apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core ca-certificates \
 && unused="$(dpkg-query -W -f '${Package}\n' | grep -E '^(libllvm[0-9]+|libgl1-mesa-dri|libz3-[0-9]+|libperl5\.[0-9]+|perl-modules-5\.[0-9]+|perl|xkb-data)$' || true)" \
 && if [ -n "$unused" ]; then dpkg --purge --force-depends $unused; fi \
 && cd /tmp \
 && printf '%s\n' '[Script Info]' 'ScriptType: v4.00+' '[V4+ Styles]' 'Format: Name, Fontname, Fontsize' 'Style: Default,DejaVu Sans,20' \
      '[Events]' 'Format: Layer, Start, End, Style, Text' 'Dialogue: 0,0:00:00.00,0:00:01.00,Default,Encore' > check.ass \
 && ffmpeg -v error -f lavfi -i sine=duration=0.3 -f lavfi -i testsrc=d=0.3:s=64x64 -vf subtitles=check.ass \
      -c:v libx264 -c:a libopus -shortest -y check.mp4 \
 && ffprobe -v error -show_entries stream=codec_name -of csv=p=0 check.mp4 | tr '\n' ' ' | grep -q 'h264 opus' \
 && rm -f check.ass check.mp4 && cd / \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && find /usr/share/doc -type f ! -name copyright -delete \
 && find /usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} + \
 && rm -rf /usr/share/man/* /usr/share/info/* \
 && rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /usr/local/bin/npm /usr/local/bin/npx \
      /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
 && groupadd --system --gid 10001 encore \
 && useradd --system --uid 10001 --gid encore --home-dir /data --no-create-home --shell /usr/sbin/nologin encore \
 && mkdir -p /data /music \
 && chown encore:encore /data
WORKDIR /app
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=8080 \
    HOST=0.0.0.0 \
    FFMPEG_PATH=/usr/bin/ffmpeg
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/common/package.json common/
COPY --from=build /app/common/dist common/dist
COPY --from=build /app/server/package.json server/
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/server/drizzle server/drizzle
COPY --from=build /app/server/assets server/assets
COPY --from=build /app/web/dist web/dist
USER encore
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop): requests finish, running jobs get 10 s and are retried at the next
# start if they need longer, the database closes cleanly (server/src/main.ts).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=2", "--v8-pool-size=1", "server/dist/main.js", "serve"]
