#!/usr/bin/env bash
# What `npm test` builds before vitest runs, so that the README's test command is the whole suite:
#   go           the Go SDK fakes and the Go HTTPS writer    needs go        (fake-servers/go, go-http)
#   java         the Java SDK fakes                          needs mvn, java (fake-servers/java)
#   rust         the Rust HTTPS writer and the rmcp fakes    needs cargo     (fake-servers/rust-http, rust)
#   python-sdk   .venv-pysdk with mcp and fastmcp            needs python3 with venv, and PyPI once
#   real-servers the pinned published servers of test/real   needs npm's registry once (.ci/real-servers.sh)
# Each build keeps its output outside the clone (~/.cache/mcp-crash-drill, Go's, Maven's and pip's
# caches), so a second clone on the same machine builds in seconds; docs/ci.md has the cold times.
# A group whose toolchain is not on PATH is not built, and its tests skip and say why. A group whose
# toolchain is there must build: a failed build fails `npm test`. CRASH_DRILL_SKIP_BUILD=go,rust
# leaves named groups unbuilt on purpose (their tests then skip). Under CRASH_DRILL_REQUIRE_FAKES=1,
# CRASH_DRILL_REQUIRE_PYTHON_SDK=1 or CRASH_DRILL_REQUIRE_REAL_SERVERS=1 (.ci/run sets them) a
# missing toolchain fails too.
set -uo pipefail
cd "$(dirname "$0")/.."

skip=",${CRASH_DRILL_SKIP_BUILD:-},"
failed=()
have() { command -v "$1" >/dev/null 2>&1; }
wanted() { [[ "$skip" != *",$1,"* ]]; }

# One group: its name, whether its toolchain is here (or why not), the variable that requires it,
# and the command that builds it.
group() {
  local name="$1" missing="$2" required="$3"
  shift 3
  if ! wanted "$name"; then
    echo "prepare: $name not built (CRASH_DRILL_SKIP_BUILD); its tests skip"
    return
  fi
  if [ -n "$missing" ]; then
    if [ "${!required:-}" = "1" ]; then
      echo "prepare: $name cannot be built: $missing, and $required=1 requires it"
      failed+=("$name")
    else
      echo "prepare: $name not built: $missing; its tests skip"
    fi
    return
  fi
  local start=${EPOCHREALTIME/./}
  if "$@"; then
    local tenths=$(((${EPOCHREALTIME/./} - start) / 100000))
    echo "prepare: $name ready ($((tenths / 10)).$((tenths % 10)) s)"
  else
    echo "prepare: $name failed to build (output above)"
    failed+=("$name")
  fi
}

# The venv is made again only when it is missing or holds other versions.
python_sdk() {
  local want="mcp==2.3.0 fastmcp==4.0.10"
  local probe='from importlib.metadata import version as v; print("mcp==" + v("mcp"), "fastmcp==" + v("fastmcp"))'
  if [ -x .venv-pysdk/bin/python ] && [ "$(.venv-pysdk/bin/python -c "$probe" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  rm -rf .venv-pysdk
  # shellcheck disable=SC2086 # the two requirements are words
  python3 -m venv .venv-pysdk && .venv-pysdk/bin/pip install --retries 0 -q $want
}

missing_for() {
  local tool
  for tool in "$@"; do have "$tool" || { echo "$tool is not on PATH"; return; }; done
}

group go "$(missing_for go)" CRASH_DRILL_REQUIRE_FAKES fake-servers/build-all.sh go go-http
group java "$(missing_for mvn java)" CRASH_DRILL_REQUIRE_FAKES fake-servers/build-all.sh java
rust_build=(fake-servers/build-all.sh rust)
[ -x fake-servers/rust/build.sh ] && rust_build+=(rmcp)
group rust "$(missing_for cargo)" CRASH_DRILL_REQUIRE_FAKES "${rust_build[@]}"
venv_missing="$(missing_for python3)"
[ -z "$venv_missing" ] && ! python3 -c 'import venv, ensurepip' 2>/dev/null && venv_missing="python3 has no venv module with pip (Debian: apt install python3-venv)"
group python-sdk "$venv_missing" CRASH_DRILL_REQUIRE_PYTHON_SDK python_sdk
group real-servers "$(missing_for npm)" CRASH_DRILL_REQUIRE_REAL_SERVERS .ci/real-servers.sh

if [ ${#failed[@]} -gt 0 ]; then
  echo "prepare: could not build ${failed[*]}; set CRASH_DRILL_SKIP_BUILD=$(IFS=,; echo "${failed[*]}") to run the suite without them"
  exit 1
fi
