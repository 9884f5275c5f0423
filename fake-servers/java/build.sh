#!/usr/bin/env bash
# Builds the Java fake servers and the ground-truth client (one Maven project, pom.xml) into
# fake-servers/java/bin/ (git-ignored):
#   bin/java-sdk-fakes.jar        every class with the SDK and its dependencies (maven-shade-plugin)
#   bin/<behaviour>.jar           a launcher per behaviour: Main-Class, and Class-Path naming
#                                 java-sdk-fakes.jar; the drills run `java -jar bin/<behaviour>.jar`
#   bin/thin/java-sdk-fakes-thin.jar, bin/thin/lib/*.jar
#                                 the same classes with the SDK as jars of their own (the class path
#                                 form, `java -cp thin/java-sdk-fakes-thin.jar:thin/lib/* <main>`)
# Skipped when the sources, pom.xml, this script and the Java and Maven versions hash as at the
# last build (bin/.stamp). Each hash's bin/ is also kept outside the clone, in
# $CRASH_DRILL_JAVA_FAKES_CACHE (default ~/.cache/mcp-crash-drill/java-fakes), so a fresh clone
# (CI) copies it instead of running Maven. Maven runs offline first (-o: the local repository,
# ~/.m2, has every plugin and dependency once one build has run) and online only when that fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
# shellcheck source=../keep-build.sh
source "$here/../keep-build.sh"
store="${CRASH_DRILL_JAVA_FAKES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-crash-drill/java-fakes}"
out="$here/bin"
behaviours=(well-behaved:WellBehaved slow-tool:SlowTool ignores-cancel:IgnoresCancel awaits-sampling:AwaitsSampling
  leaks-child:LeaksChild thread-keeps-alive:ThreadKeepsAlive writes-after-eof:WritesAfterEof)

stamp="$({ java -version 2>&1; mvn -v 2>&1 | head -1; sha256sum build.sh pom.xml; find src -type f -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -d' ' -f1)"
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ]; then
  echo "java fakes: up to date"
  exit 0
fi
rm -rf "$out"
kept="$store/$stamp"
if [ -f "$kept/.stamp" ]; then
  cp -a "$kept" "$out"
  echo "java fakes: copied from $kept"
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
