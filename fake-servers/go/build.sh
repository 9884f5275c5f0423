#!/usr/bin/env bash
# Builds the Go fake servers and the ground-truth client into fake-servers/go/bin/ (git-ignored),
# one binary per SDK build whose first argument names the behaviour (`fakes slow-tool`): linking is
# most of a cold Go build, and 5 links instead of 23 cut it (README.md, "Building"):
#   bin/go-sdk-v1.8.0/fakes         go-sdk/cmd/fakes with go.mod
#   bin/go-sdk-v1.6.1/fakes         the same with -modfile=go-v1.6.1.mod (the same source, the SDK before v1.7.0)
#   bin/mcp-go-v1.2.1/fakes         mcp-go/cmd/fakes
#   bin/groundtruth/groundtruth     groundtruth/ (the measuring client, go-sdk's and mcp-go's)
#   bin/darwin-arm64/fakes          go-sdk/cmd/fakes, cross-built as Mach-O for the build info reader's test
# What no SDK changes (the choice of behaviour, the behaviours after the run call, the `sleep`
# children) is one module, fakekit/, which each SDK's module files require through a `replace`
# to ../fakekit. A target whose sources (fakekit/'s included), module files, this script and the
# Go version are unchanged since its last build is skipped (bin/<target>/.stamp holds their hash). The binaries of each hash are also
# kept outside the clone, in $CRASH_DRILL_GO_FAKES_CACHE (default ~/.cache/mcp-crash-drill/
# go-fakes), so a fresh clone (CI) copies them instead of linking again; -trimpath
# keeps them free of the clone's path. Go's own build cache (GOCACHE) makes a changed target's
# rebuild incremental. Modules come from the module cache first (GOPROXY=off: no network once
# they are there), and from the module proxy only when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
# shellcheck source=../keep-build.sh
source "$here/../keep-build.sh"
export GOTOOLCHAIN=local GOFLAGS='-mod=readonly -buildvcs=false'
store="${CRASH_DRILL_GO_FAKES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-crash-drill/go-fakes}"

build() { # <target> <module folder> [-modfile=... or ""] [packages] [GOOS/GOARCH]
  local target="$1" dir="$2" modflag="${3:-}" packages="${4:-./...}" platform="${5:-}" out="$here/bin/$1"
  local stamp folders
  # The module's folder and the local modules its module files replace in (`=> ../fakekit`),
  # named relative to here: the hash is the same in every clone.
  # shellcheck disable=SC2207 # folder names without spaces
  folders=("$dir" $(sed -n 's|^replace .* => \.\./\([^ ]*\)$|\1|p' "$dir"/*.mod | sort -u))
  stamp="$({ go version; sha256sum "$here/build.sh"; find "${folders[@]}" -type f \( -name '*.go' -o -name '*.mod' -o -name '*.sum' \) -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -d' ' -f1)"
  if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ]; then
    echo "go fakes: $target is up to date"
    return
  fi
  rm -rf "$out" && mkdir -p "$out"
  local kept="$store/$target-$stamp"
  if [ -f "$kept/.stamp" ]; then
    cp -a "$kept/." "$out/"
    echo "go fakes: $target copied from $kept"
    return
  fi
  # shellcheck disable=SC2086 # modflag and packages are words
  (cd "$dir" && if [ -n "$platform" ]; then export GOOS="${platform%/*}" GOARCH="${platform#*/}"; fi &&
    { GOPROXY=off go build -trimpath $modflag -o "$out/" $packages 2>/dev/null || go build -trimpath $modflag -o "$out/" $packages; })
  echo "$stamp" > "$out/.stamp"
  echo "go fakes: built $target ($(find "$out" -type f ! -name .stamp | wc -l) binaries)"
  # Keep this hash's binaries outside the clone (fake-servers/keep-build.sh).
  keep_build "$out" "$store" "$target-$stamp" "$target-" || echo "go fakes: could not keep $target in $store"
}

build go-sdk-v1.8.0 go-sdk "" ./cmd/fakes
build go-sdk-v1.6.1 go-sdk -modfile=go-v1.6.1.mod ./cmd/fakes
build mcp-go-v1.2.1 mcp-go "" ./cmd/fakes
build groundtruth groundtruth
build darwin-arm64 go-sdk "" ./cmd/fakes darwin/arm64
