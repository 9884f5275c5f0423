#!/usr/bin/env bash
# Installs the published MCP servers with native binaries that test/real drills, pinned in
# test/real/support/native-servers.json, with npm (the tarballs come from npm's cache after the
# first time). They go into a folder outside the clone, one per version of the list
# ($CRASH_DRILL_REAL_SERVERS_CACHE, default ~/.cache/mcp-crash-drill/real-servers-<hash>), and
# .real-servers in the clone links to it, so a fresh clone on the same machine installs nothing.
# Measured here: 40-60 s the first time (about 110 MB of tarballs, 230 MB unpacked), under 1 s after.
set -euo pipefail
cd "$(dirname "$0")/.."
list=test/real/support/native-servers.json
hash="$(sha256sum "$list" | cut -c1-16)"
store="${CRASH_DRILL_REAL_SERVERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-crash-drill}/real-servers-$hash"
if [ ! -f "$store/.done" ]; then
  specs="$(node -e 'const l = require("./'"$list"'").packages; console.log(Object.values(l).map((p) => `${p.package}@${p.version}`).join(" "))')"
  rm -rf "$store.tmp.$$" && mkdir -p "$store.tmp.$$"
  # shellcheck disable=SC2086 # specs are words
  npm install --prefix "$store.tmp.$$" --no-save --no-audit --no-fund --loglevel=error $specs
  rm -rf "$store" && mv "$store.tmp.$$" "$store" && touch "$store/.done"
  echo "real servers: installed $specs into $store"
else
  echo "real servers: $store is installed"
fi
rm -rf .real-servers && ln -s "$store" .real-servers
# The survey's tests (test/survey/survey.e2e.test.ts, test/unprivileged/survey.e2e.test.ts) drill four
# entries of survey/catalog.yaml from the survey's cache (~/.cache/mcp-crash-drill/survey): installed
# here with the registries' tools, found there on the next run.
node dist/bin/crash-drill.js survey --install-only --only server-memory,mcp-server-time,kubernetes-mcp-server,firecrawl
