#!/usr/bin/env bash
# Builds the container image (Dockerfile) as CI does, tagged turnkey-emulator: from the local
# Node base (.ci/container-base.sh; no image registry is reachable here), with this checkout's
# better-sqlite3 binary lent to the build (GitHub's prebuilt downloads are not reachable either).
# test/container/image.test.ts runs it.
#
#   CONTAINERS_CONF=.ci/containers.conf bash .ci/container-image.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BASE="${NODE_BASE_IMAGE:-localhost/turnkey-emulator-base:trixie}"
podman image exists "$BASE" || bash .ci/container-base.sh "$BASE"
node scripts/container-native.mjs lend .ci/prebuilds
# The build steps' default of 1,024 open files is too few for npm ci; --network host: the build's
# npm reaches the registry as this machine does.
podman build --format docker --ulimit nofile=20000:20000 --network host --build-arg NODE_IMAGE="$BASE" -t turnkey-emulator .
echo "turnkey-emulator built in $SECONDS s: $(podman image inspect --format '{{.Size}}' turnkey-emulator) bytes, its base $(podman image inspect --format '{{.Size}}' "$BASE")"
