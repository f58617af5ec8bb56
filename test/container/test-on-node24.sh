#!/usr/bin/env bash
# `npm run test:node24 [-- jest options]`: the unit and end-to-end suites on Node 24, the Node the image
# ships (test/container/image-node.sh), while everything else runs on the machine's Node. No dependency
# is compiled for one Node (test/container/native-modules.spec.ts), so they run in this checkout.
set -euo pipefail
cd "$(dirname "$0")/../.."
node_dir=$(test/container/image-node.sh)
export PATH="$node_dir/bin:$PATH"
echo "Node $(node --version)"
npm test -- --selectProjects unit e2e "$@"
