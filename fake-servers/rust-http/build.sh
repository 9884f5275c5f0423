#!/bin/sh
# Builds bin/rust-http-writer (git-ignored) with cargo. reqwest and its crates come from
# crates.io the first time (Cargo.lock pins them) and stay in cargo's own cache; the compiled
# crates stay in a target folder outside the checkout, so a fresh clone on the same machine
# (CI's) builds in seconds instead of minutes. CARGO_TARGET_DIR overrides it.
set -eu
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-crash-drill/rust-http-target}"
cargo build --release --locked --quiet
mkdir -p bin
cp "$CARGO_TARGET_DIR/release/rust-http-writer" bin/rust-http-writer.tmp
mv bin/rust-http-writer.tmp bin/rust-http-writer
