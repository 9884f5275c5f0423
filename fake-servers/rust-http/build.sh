#!/bin/sh
# Builds target/release/rust-http-writer (git-ignored) with cargo: reqwest and its crates come
# from crates.io the first time (Cargo.lock pins them) and are cached by cargo after that.
set -eu
cd "$(dirname "$0")"
cargo build --release --locked --quiet
