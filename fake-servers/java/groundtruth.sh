#!/usr/bin/env bash
# Runs the ground-truth measurement (dev.crashdrill.groundtruth.Main, in bin/java-sdk-fakes.jar)
# as a child subreaper: perl sets PR_SET_CHILD_SUBREAPER (prctl(2); unprivileged, kept across
# execve) and execs the JVM, since Java has no prctl. A server whose client was killed is then
# re-parented to the measuring JVM, which times its exit and reads its status.
#   fake-servers/java/groundtruth.sh [--window ms] [--parallel n]      (default: bin/, 5000 ms, 2)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/build.sh" >&2
# prctl's syscall number: 157 on x86_64, 167 on aarch64 (asm/unistd.h); PR_SET_CHILD_SUBREAPER is 36.
case "$(uname -m)" in x86_64) nr=157 ;; aarch64) nr=167 ;; *) echo "groundtruth.sh: no prctl number for $(uname -m)" >&2; exit 2 ;; esac
exec perl -e 'syscall($ARGV[0], 36, 1, 0, 0, 0) == 0 or die "prctl(PR_SET_CHILD_SUBREAPER): $!\n"; shift; exec { $ARGV[0] } @ARGV or die "exec: $!\n"' \
  "$nr" java -cp "$here/bin/java-sdk-fakes.jar" dev.crashdrill.groundtruth.Main "$@" "$here/bin"
