#!/usr/bin/env bash
# Lints the container files without a Docker engine (`npm run lint:docker`):
#  1. docker/Dockerfile with dockerfile-utils (a devDependency). Its CLI exits 1 only on errors and
#     prints warnings with exit 0, so any output at all fails here.
#  2. docker/compose.yaml with `docker-compose config -q` (Debian's docker-compose 1.29, which checks
#     the file against the Compose schema and needs no engine). When docker-compose is not installed
#     the check is skipped with a message, unless LINT_DOCKER_REQUIRE_COMPOSE=1 (CI sets it).
# hadolint is not used: it is available neither from Debian's apt nor from npm here.
set -euo pipefail
cd "$(dirname "$0")/.."

failed=0

echo "dockerfile-utils lint docker/Dockerfile"
status=0
output=$(node_modules/.bin/dockerfile-utils lint docker/Dockerfile 2>&1) || status=$?
if [ "$status" -ne 0 ] || [ -n "$output" ]; then
  printf '%s\n' "$output"
  echo "docker/Dockerfile: problems found (exit $status)" >&2
  failed=1
else
  echo "  ok"
fi

echo "docker-compose -f docker/compose.yaml config -q"
if command -v docker-compose >/dev/null 2>&1; then
  if docker-compose -f docker/compose.yaml config -q; then
    echo "  ok ($(docker-compose version --short 2>/dev/null || echo 'version unknown'))"
  else
    echo "docker/compose.yaml: invalid" >&2
    failed=1
  fi
elif [ "${LINT_DOCKER_REQUIRE_COMPOSE:-0}" = 1 ]; then
  echo "docker-compose is not installed, and LINT_DOCKER_REQUIRE_COMPOSE=1 requires the check" >&2
  failed=1
else
  echo "  SKIPPED: docker-compose is not installed (Debian/Ubuntu: apt-get install -y --no-install-recommends docker-compose)"
fi

exit "$failed"
