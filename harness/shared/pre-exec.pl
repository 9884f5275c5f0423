# The spawn facts of a client profile (harness/client-profiles/profiles.ts) that Node's spawn
# cannot give a child: a process group of its own (setpgid(0, 0), as Codex's and Goose's
# process_group(0) do) and a parent-death signal set with prctl(PR_SET_PDEATHSIG) before exec
# (Goose's configure_parent_death_signal). The drill client process (harness/shared/spawn-subject.ts)
# spawns the server as `perl -e <this file> ...`, which sets them and execs the server in its own
# place: the same pid, so the client's child is the server, as under the real client. (A session
# of its own needs no perl: Node's `detached` is setsid.)
#
# Arguments: <own group: 1|0> <parent-death signal number, or 0> <prctl syscall number, or "">
# <the client's pid> -- <command> <args...> (the command is looked up on PATH, like Node's spawn).
# Exits 126 when a fact cannot be set, 127 when the command cannot be run.
#
use strict; use warnings;
my ($group, $sig, $nr, $parent, $sep, @cmd) = @ARGV;
exit 126 unless defined $sep && $sep eq '--' && @cmd;
if ($group) { setpgrp(0, 0) or exit 126; }
if ($sig) {
  $nr = eval { require 'syscall.ph'; &SYS_prctl() } if $nr eq '';
  exit 126 unless defined $nr && syscall($nr, 1, $sig + 0, 0, 0, 0) == 0; # PR_SET_PDEATHSIG
  # The client died before the prctl: the signal would never come (Goose fails the spawn then).
  exit 126 if getppid() != $parent;
}
{ no warnings 'exec'; exec { $cmd[0] } @cmd; }
print STDERR "crash-drill: exec $cmd[0]: $!\n";
exit 127;
