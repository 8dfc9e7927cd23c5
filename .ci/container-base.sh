#!/usr/bin/env bash
# Builds the local Node base image CI builds the Dockerfile from (no image registry is reachable
# here): Debian trixie's minimal root file system with its nodejs (20.19, which the package
# supports), the npm this machine runs (trixie's npm 9 cannot `npm ci` this lockfile) and this
# machine's extra CA certificates (npm inside a build step otherwise refuses the registry's chain).
#
#   bash .ci/container-base.sh [IMAGE]     (default localhost/turnkey-emulator-base:trixie)
set -euo pipefail
IMAGE="${1:-localhost/turnkey-emulator-base:trixie}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
root="$(mktemp -d /tmp/container-base.XXXXXX)"
trap '$SUDO rm -rf "$root"' EXIT

$SUDO debootstrap --variant=minbase --include=nodejs,ca-certificates trixie "$root" "$MIRROR" >"$root.log" 2>&1 \
  || { tail -n 30 "$root.log"; exit 1; }
rm -f "$root.log"
npm_dir="$(npm root -g)/npm"
$SUDO mkdir -p "$root/usr/local/lib/node_modules" "$root/usr/local/bin"
$SUDO cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
$SUDO ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
$SUDO ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  $SUDO cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  $SUDO chroot "$root" update-ca-certificates >/dev/null 2>&1
fi
$SUDO rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/usr/share/doc/* "$root"/usr/share/man/*
$SUDO tar -C "$root" -c . | podman import -q --change 'CMD ["node"]' - "$IMAGE" >/dev/null
echo "$IMAGE: $(podman run --rm "$IMAGE" node --version), npm $(podman run --rm "$IMAGE" npm --version)"
