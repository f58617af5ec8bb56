#!/usr/bin/env bash
# `npm run test:node24 [-- jest options]`: the unit and end-to-end suites on Node 24, the Node the image
# ships (test/container/image-node.sh), while everything else runs on the machine's Node. better-sqlite3
# is compiled for one Node ABI, so they run in a copy of this checkout whose better-sqlite3 is rebuilt
# for Node 24 against its headers (a copy of the module, not a link to it); this checkout's
# node_modules stays as it is. The copy (the cache's checkout-node24) is made afresh each run; the
# rebuilt module is kept in the cache for that better-sqlite3 and Node.
set -euo pipefail
cd "$(dirname "$0")/../.."
cache=${PETS_CONTAINER_CACHE:-/var/tmp/pets-container}
node_dir=$(test/container/image-node.sh)
copy="$cache/checkout-node24"

rm -rf "$copy"
mkdir -p "$copy/node_modules"
# The files and git metadata (a test runs git grep), without what the build and the tests write.
tar -c --exclude=./node_modules --exclude=./dist --exclude=./data --exclude=./coverage . | tar -x -C "$copy"
# Hard links where the filesystem allows: seconds, and no space.
cp -al node_modules/. "$copy/node_modules/" 2>/dev/null || cp -a node_modules/. "$copy/node_modules/"
rm -rf "$copy/node_modules/better-sqlite3"

export PATH="$node_dir/bin:$PATH"
rebuilt="$cache/better-sqlite3-$(node -p "require('./node_modules/better-sqlite3/package.json').version")-node-$(node --version)"
if [ -d "$rebuilt" ]; then
  cp -a "$rebuilt" "$copy/node_modules/better-sqlite3"
else
  echo "rebuilding better-sqlite3 for Node $(node --version) against $node_dir/include"
  cp -a node_modules/better-sqlite3 "$copy/node_modules/better-sqlite3"
  (cd "$copy" && npm_config_nodedir="$node_dir" npm rebuild better-sqlite3 --no-audit --no-fund >/dev/null)
  cp -a "$copy/node_modules/better-sqlite3" "$rebuilt"
fi

cd "$copy"
npm test -- --selectProjects unit e2e "$@"
