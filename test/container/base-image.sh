#!/usr/bin/env bash
# Builds a stand-in for the image's base, docker.io/library/node:<NODE_VERSION>-bookworm-slim, which
# cannot be pulled here, from the two registries this machine reaches, and tags it with that name; one
# already present is reused. Like the official image: Debian bookworm (debootstrap minbase, from the
# mirror apt already uses), slimmed as Debian's slim images are; Node with its headers in /usr/local
# (test/container/image-node.sh) and npm 11, as Node 24 ships it; a `node` user with uid 1000; the
# same entrypoint and CMD ["node"]. Run as root, with CONTAINERS_CONF set.
set -euo pipefail
cd "$(dirname "$0")"
cache=${PETS_CONTAINER_CACHE:-/var/tmp/pets-container}
node_dir=$(./image-node.sh)
node_version=$("$node_dir/bin/node" --version)
node_version=${node_version#v}
base="docker.io/library/node:$node_version-bookworm-slim"
if podman image exists "$base"; then
  echo "$base: present"
  exit 0
fi

# The Debian mirror apt uses: the URIs of the bookworm entry of the deb822 sources, or of sources.list.
mirror=$(awk -v RS= '{
    uri = ""; bookworm = 0
    n = split($0, lines, "\n")
    for (i = 1; i <= n; i++) {
      m = split(lines[i], f, /[ \t]+/)
      if (f[1] == "URIs:") uri = f[2]
      if (f[1] == "Suites:") for (j = 2; j <= m; j++) if (f[j] == "bookworm") bookworm = 1
    }
    if (bookworm && uri != "") { print uri; exit }
  }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1 == "deb" { for (i = 2; i < NF; i++) if ($i ~ /:\/\// && $(i + 1) == "bookworm") { print $i; exit } }' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || { echo "no bookworm entry in apt's sources: cannot tell which Debian mirror to use" >&2; exit 1; }

echo "$base: building a stand-in (debootstrap bookworm minbase, Node $node_version)"
rootfs=$(mktemp -d "$cache/rootfs.XXXXXX")
trap 'rm -rf "$rootfs"' EXIT
debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
  { tail -n 30 "$cache/debootstrap.log" >&2; exit 1; }

# Node and its headers where the official image has them; npm 11, as Node 24 ships it.
cp -a "$node_dir/bin" "$node_dir/include" "$node_dir/share" "$rootfs/usr/local/"
npm_tarball=$(cd "$cache" && npm pack npm@11 --silent)
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$cache/$npm_tarball" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
rm -f "$cache/$npm_tarball"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
# The official image's entrypoint: a first argument that is an option or no command runs under node.
cat >"$rootfs/usr/local/bin/docker-entrypoint.sh" <<'ENTRYPOINT'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
ENTRYPOINT
chmod 755 "$rootfs/usr/local/bin/docker-entrypoint.sh"
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# Slim, as Debian's slim images are: no documentation but the copyrights, no manuals or
# translations, now and in any later apt-get install.
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim" <<'SLIM'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
SLIM
find "$rootfs/usr/share/doc" -type f ! -name copyright -delete
find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log "$rootfs"/var/cache/debconf/*-old

tar -C "$rootfs" --numeric-owner -c . | podman import --quiet \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["node"]' \
  - "$base" >/dev/null
echo "$base: built ($(podman image inspect --format '{{.Size}}' "$base") bytes)"
