#!/usr/bin/env bash
# Builds the rmcp fake servers and the ground-truth client into fake-servers/rust/bin/ (git-ignored):
#   bin/rmcp-3.11.0/<behaviour>    src/bin/<behaviour>.rs, cargo build --release
#   bin/groundtruth/groundtruth    src/bin/groundtruth/ (the measuring client, rmcp's own)
#   bin/auditable/well-behaved     the same well-behaved built with `cargo auditable`, whose
#                                  .dep-v0 section the Rust SDK reader's test reads
# Everything is skipped when the sources, Cargo.toml, Cargo.lock, this script and the cargo version
# hash the same as at the last build (bin/.stamp). The binaries of each hash are also kept outside
# the clone, in $CRASH_DRILL_RUST_FAKES_CACHE (default ~/.cache/mcp-crash-drill/rust-fakes), so a
# fresh clone (CI) copies them instead of compiling again. Cargo's target dir ($CARGO_TARGET_DIR,
# which fake-servers/build-all.sh shares with rust-http outside the clone; else target/, git-ignored)
# makes a changed build incremental. Crates come from cargo's registry cache first
# (--offline: no network once they are there), from crates.io only when one is missing; cargo
# auditable is installed from crates.io once, into the same cache folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
# shellcheck source=../keep-build.sh
source "$here/../keep-build.sh"
store="${CRASH_DRILL_RUST_FAKES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-crash-drill/rust-fakes}"
rmcp="rmcp-$(grep -A1 '^name = "rmcp"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')"
behaviours=(well-behaved slow-tool ignores-cancel awaits-sampling leaks-child task-keeps-alive writes-after-eof prints-after-eof waits-for-signal)
auditable_version=0.7.7

stamp="$({ cargo --version; echo "$auditable_version"; sha256sum build.sh Cargo.toml Cargo.lock; find src -type f -name '*.rs' -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -d' ' -f1)"
if [ -f bin/.stamp ] && [ "$(cat bin/.stamp)" = "$stamp" ]; then
  echo "rust fakes: up to date"
  exit 0
fi
rm -rf bin && mkdir -p bin
kept="$store/rmcp-fakes-$stamp"
if [ -f "$kept/.stamp" ]; then
  cp -a "$kept/." bin/
  echo "rust fakes: copied from $kept"
  exit 0
fi

cargo_build() { # [cargo subcommand words...]: offline first, the registry only when a crate is missing
  "$@" --release --locked --offline 2>/dev/null || "$@" --release --locked
}
cargo_build cargo build --bins
mkdir -p "bin/$rmcp" bin/groundtruth bin/auditable
target="${CARGO_TARGET_DIR:-target}"
for b in "${behaviours[@]}"; do cp "$target/release/$b" "bin/$rmcp/"; done
cp "$target/release/groundtruth" bin/groundtruth/

# cargo auditable (crates.io, pinned): a rustc wrapper that embeds the dependency list, zlib-
# compressed JSON, in a .dep-v0 section. Installed once; then only the workspace crate is rebuilt.
tools="$store/tools"
if [ ! -x "$tools/bin/cargo-auditable" ] || ! "$tools/bin/cargo-auditable" --version 2>/dev/null | grep -q "$auditable_version"; then
  cargo install --quiet --locked --root "$tools" --version "$auditable_version" cargo-auditable
fi
PATH="$tools/bin:$PATH" cargo_build cargo auditable build --bin well-behaved
cp "$target/release/well-behaved" bin/auditable/
# Leave target/ as a plain build, so a later `cargo build` there does not start by undoing the wrapper.
cargo_build cargo build --bin well-behaved >/dev/null 2>&1 || true

echo "$stamp" > bin/.stamp
echo "rust fakes: built $rmcp ($(find bin -type f ! -name .stamp | wc -l) binaries)"
# Keep this hash's binaries outside the clone (fake-servers/keep-build.sh).
keep_build bin "$store" "$(basename "$kept")" rmcp-fakes- || echo "rust fakes: could not keep the binaries in $store"
