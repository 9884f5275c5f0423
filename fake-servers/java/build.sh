#!/usr/bin/env bash
# Builds the Java fake servers and the ground-truth client (one Maven project, pom.xml) into
# fake-servers/java/bin/ (git-ignored):
#   bin/java-sdk-fakes.jar        every class with the SDK and its dependencies (maven-shade-plugin)
#   bin/<behaviour>.jar           a launcher per behaviour: Main-Class, and Class-Path naming
#                                 java-sdk-fakes.jar; the drills run `java -jar bin/<behaviour>.jar`
#   bin/cds/<behaviour>.jsa       its class-data archive (make_archives below), made against the
#                                 jars at this folder's physical path, so made again in each clone
#   bin/thin/java-sdk-fakes-thin.jar, bin/thin/lib/*.jar
#                                 the same classes with the SDK as jars of their own (the class path
#                                 form, `java -cp thin/java-sdk-fakes-thin.jar:thin/lib/* <main>`)
# Skipped when the sources, pom.xml, this script and the Java and Maven versions hash as at the
# last build (bin/.stamp). Each hash's bin/ is also kept outside the clone, in
# $CRASH_DRILL_JAVA_FAKES_CACHE (default ~/.cache/mcp-crash-drill/java-fakes), so a fresh clone
# (CI) copies it instead of running Maven. Maven runs offline first (-o: the local repository,
# ~/.m2, has every plugin and dependency once one build has run) and online only when that fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd -P)"
cd "$here"
# shellcheck source=../keep-build.sh
source "$here/../keep-build.sh"
store="${CRASH_DRILL_JAVA_FAKES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-crash-drill/java-fakes}"
out="$here/bin"
behaviours=(well-behaved:WellBehaved slow-tool:SlowTool ignores-cancel:IgnoresCancel awaits-sampling:AwaitsSampling
  leaks-child:LeaksChild thread-keeps-alive:ThreadKeepsAlive writes-after-eof:WritesAfterEof)

stamp="$({ java -version 2>&1; mvn -v 2>&1 | head -1; sha256sum build.sh pom.xml; find src -type f -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -d' ' -f1)"

# One class-data archive per behaviour (AppCDS, JDK 13+: -XX:ArchiveClassesAtExit), bin/cds/<behaviour>.jsa:
# the classes a JVM of that launcher loaded through a handshake, mapped at start instead of read
# from the jars and verified (a JVM's start to its initialize answer: about 1.8 CPU-s here, 0.9 with
# its archive). It changes what a start costs, not what the server does. A JVM takes an archive only
# with the class path it was made with, word for word, and the same jars (size and time; seen on
# OpenJDK 17.0.15, -Xlog:class+path=info: "Required classpath entry does not exist"), so the
# archives are made here, against the jars at this folder's physical path (the drills name them
# by absolute path, as Node resolves the checkout), and again when that path or the build changes:
# they are not kept outside the clone. A drill that names a jar another way gets no archive, and
# runs as without one (-Xlog:cds*=off keeps the JVM's "unable to use shared archive" off stdout).
archive_one() {
  local jar="$1" jsa="$2" line pid
  # A handshake, tools/list and a ping, then SIGTERM: the JVM writes the archive as it exits.
  coproc JVM { exec java -XX:-UsePerfData -XX:ArchiveClassesAtExit="$jsa" -jar "$jar" 2>/dev/null; }
  pid=$JVM_PID
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"build.sh","version":"1"}}}' >&"${JVM[1]}"
  IFS= read -r -t 120 line <&"${JVM[0]}" || { kill -KILL "$pid"; return 1; }
  printf '%s\n%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' >&"${JVM[1]}"
  IFS= read -r -t 120 line <&"${JVM[0]}" || { kill -KILL "$pid"; return 1; }
  printf '%s\n' '{"jsonrpc":"2.0","id":3,"method":"ping"}' >&"${JVM[1]}"
  IFS= read -r -t 120 line <&"${JVM[0]}" || { kill -KILL "$pid"; return 1; }
  kill -TERM "$pid"
  wait "$pid" || true
  [ -s "$jsa" ]
}
make_archives() {
  local dir="$out/cds" want="$stamp $out" tmp="$out/.cds.tmp.$$" failed=0 entry name
  if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$want" ]; then return 0; fi
  rm -rf "$dir" "$tmp"
  mkdir -p "$tmp"
  for entry in "${behaviours[@]}"; do
    name="${entry%%:*}"
    (archive_one "$out/$name.jar" "$tmp/$name.jsa") &
  done
  for entry in "${behaviours[@]}"; do wait -n || failed=$((failed + 1)); done
  if [ "$failed" -ne 0 ]; then
    rm -rf "$tmp"
    echo "java fakes: $failed of ${#behaviours[@]} class-data archives could not be made (java -XX:ArchiveClassesAtExit)" >&2
    exit 1
  fi
  echo "$want" >"$tmp/.stamp"
  mv -T "$tmp" "$dir"
  echo "java fakes: made ${#behaviours[@]} class-data archives in $dir"
}

if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ]; then
  echo "java fakes: up to date"
  make_archives
  exit 0
fi
rm -rf "$out"
kept="$store/$stamp"
if [ -f "$kept/.stamp" ]; then
  cp -a "$kept" "$out"
  rm -rf "$out/cds"
  echo "java fakes: copied from $kept"
  make_archives
  exit 0
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
rm -rf target # no class of a deleted source may linger
if mvn -o -B -q package >"$log" 2>&1; then
  echo "java fakes: built offline from the local Maven repository"
else
  echo "java fakes: the local Maven repository lacks something; building online"
  mvn -B -q package >"$log" 2>&1 || { cat "$log"; exit 1; }
fi
mkdir -p "$out/thin"
cp target/java-sdk-fakes.jar "$out/"
cp target/java-sdk-fakes-thin.jar "$out/thin/"
cp -r target/lib "$out/thin/lib"
manifest="$(mktemp)"
for entry in "${behaviours[@]}"; do
  printf 'Main-Class: dev.crashdrill.fakes.%s\nClass-Path: java-sdk-fakes.jar\n' "${entry#*:}" >"$manifest"
  jar --create --file "$out/${entry%%:*}.jar" --manifest "$manifest" --date 2026-01-01T00:00:02Z
done
rm -f "$manifest"
echo "$stamp" >"$out/.stamp"
echo "java fakes: built ${#behaviours[@]} servers and the ground-truth client into $out"
# Keep this hash's bin/ outside the clone (fake-servers/keep-build.sh).
keep_build "$out" "$store" "$(basename "$kept")" "" || echo "java fakes: could not keep the build in $store"
make_archives

