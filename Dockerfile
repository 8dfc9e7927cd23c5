# The emulator as a container image, for test suites in any language (README "Containers"):
#
#   docker build -t turnkey-emulator .
#   docker run --rm -p 127.0.0.1:8787:8787 turnkey-emulator
#
# NODE_IMAGE is any Node >= 20.19 image with npm (Debian-based where a native module must be
# compiled); CI builds from a local one (.ci/container-base.sh). Two stages: `build` installs the
# checkout, builds and packs it, then installs the packed package with its production
# dependencies only (and EDR, the embedded EVM chains' optional peer dependency, for this
# platform only) into /app; the runtime stage is NODE_IMAGE with /app and nothing else.
ARG NODE_IMAGE=node:24-trixie-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# better-sqlite3 (through prebuild-install, configured by ~/.prebuild-installrc) takes a prebuilt
# binary from /prebuilds before it downloads one (CI lends the checkout's there:
# scripts/container-native.mjs); without either it is compiled, with the compiler and Node's
# headers installed only then.
RUN echo "local-prebuilds=/prebuilds" > "$HOME/.prebuild-installrc"
COPY package.json package-lock.json ./
COPY bin/ bin/
RUN npm ci --ignore-scripts
COPY .ci/prebuilds/ /prebuilds/
RUN export npm_config_nodedir="$(node -p 'require("path").resolve(process.execPath, "../..")')" \
 && if ! npm rebuild >/tmp/rebuild.log 2>&1; then \
      tail -n 20 /tmp/rebuild.log; echo "compiling the native modules from source"; \
      tools="python3 make g++"; if dpkg -s nodejs >/dev/null 2>&1; then tools="$tools libnode-dev"; fi; \
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $tools >/dev/null \
      && npm rebuild; \
    fi
COPY . .
# From an empty dist/ (.dockerignore leaves the checkout's out): a stale compiled file would be packed.
RUN rm -rf dist && npm run build && mkdir /pkg && npm pack --pack-destination /pkg >/dev/null \
 && node scripts/container-native.mjs lend /prebuilds
WORKDIR /app
RUN edr="$(node -p 'require("/src/package-lock.json").packages["node_modules/@nomicfoundation/edr"].version')" \
 && echo '{ "name": "turnkey-emulator-image", "private": true, "allowScripts": { "better-sqlite3": true } }' > package.json \
 && npm install --omit=dev --no-package-lock /pkg/turnkey-emulator-*.tgz "@nomicfoundation/edr@$edr" \
 && node /src/scripts/container-native.mjs prune \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src node_modules/better-sqlite3/build/Release/obj* \
      node_modules/better-sqlite3/build/Release/test_extension.node node_modules/better-sqlite3/build/Release/sqlite3.a

FROM ${NODE_IMAGE}
COPY --from=build /app /app
# uid 1000 (the official images' `node` user) owns /data, the volume for --db and state files.
RUN mkdir -p /data && chown 1000:1000 /data
USER 1000:1000
WORKDIR /data
VOLUME /data
ENV PATH=/app/node_modules/.bin:$PATH EMULATOR_HOST=0.0.0.0 EMULATOR_PORT=8787
EXPOSE 8787
# The control API answers on the container's loopback; Node's own fetch, no curl needed.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.EMULATOR_PORT + '/emulator/v1/info').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["emulator"]
CMD ["start"]
