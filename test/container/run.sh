#!/usr/bin/env bash
# `npm run test:container` (docs/container.md): builds docker/Dockerfile with Podman on a stand-in of
# its base image, then runs the image against the local PostgreSQL and Redis and checks it
# (check-image.mjs). Installs what it needs from Debian's packages; run as root, as CI does.
# DATABASE_URL names a PostgreSQL server's `postgres` database (default postgres://postgres@127.0.0.1:5432/postgres):
# the checks create and drop pets_container there. REDIS_URL names the Redis server (db 11 is used).
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v runc >/dev/null 2>&1 || missing+=(runc)
[ -x /usr/libexec/podman/catatonit ] || missing+=(catatonit) # `init: true` in compose.yaml
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export CONTAINERS_CONF="$PWD/test/container/containers.conf"
test/container/base-image.sh
exec node test/container/check-image.mjs
