#!/usr/bin/env bash
# Builds every compiled fake server, each language with its own build.sh, and says how long each
# took (test/prepare.sh calls it before npm test's vitest):
#   go      fake-servers/go/build.sh         go-sdk v1.8.0, v1.6.1, mcp-go: one binary per SDK build
#   java    fake-servers/java/build.sh       the Java SDK fakes (Maven)
#   go-http fake-servers/go-http/build.sh    the HTTPS writer in Go (net/http)
#   rust    fake-servers/rust-http/build.sh  the HTTPS writer in Rust (reqwest); rmcp fakes too once there
# The Rust builds share one cargo target folder outside the clone (CARGO_TARGET_DIR, default
# ~/.cache/mcp-crash-drill/cargo-target), so the crates they have in common (tokio, serde, ...)
# compile once. Each language is built even when another failed; the exit code is 1 when any
# failed, and the failed ones are named. Usage: build-all.sh [language...] (default: all).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-crash-drill/cargo-target}"
declare -A scripts=([go]=go/build.sh [java]=java/build.sh [go-http]=go-http/build.sh [rust]=rust-http/build.sh)
order=(go java go-http rust)
[ -x "$here/rust/build.sh" ] && scripts[rmcp]=rust/build.sh && order+=(rmcp)
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=("${order[@]}")
failed=()
times=()
for lang in "${wanted[@]}"; do
  script="${scripts[$lang]:-}"
  if [ -z "$script" ]; then
    echo "build-all: no language $lang (one of ${order[*]})" >&2
    exit 3
  fi
  start=${EPOCHREALTIME/./}
  if ! "$here/$script"; then failed+=("$lang"); fi
  tenths=$(((${EPOCHREALTIME/./} - start) / 100000))
  times+=("$lang $((tenths / 10)).$((tenths % 10)) s")
done
echo "build-all: $(IFS=,; echo "${times[*]}" | sed 's/,/, /g')"
if [ ${#failed[@]} -gt 0 ]; then
  echo "build-all: could not build ${failed[*]} (output above)"
  exit 1
fi
