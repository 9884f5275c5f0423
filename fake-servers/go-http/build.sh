#!/bin/sh
# Builds bin/go-http-writer (git-ignored) from main.go with the Go toolchain on PATH; standard
# library only, so nothing is downloaded. Skips the build when the binary is newer than its sources.
set -eu
cd "$(dirname "$0")"
if [ -x bin/go-http-writer ] && [ -z "$(find main.go go.mod -newer bin/go-http-writer)" ]; then exit 0; fi
mkdir -p bin
CGO_ENABLED=0 go build -trimpath -o bin/go-http-writer .
