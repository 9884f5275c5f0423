# Puts the server into its drill's loopback-only network (keeper.pl) and execs it in its own
# place: the same pid and start time, so the harness identifies the server and everything it
# starts from the host's /proc as it does without a namespace (no pid namespace is made), and
# signals, process groups, sessions, the parent-death signal and the stdio pipes are untouched.
# The client (stand-in, or the client process through pre-exec.pl) runs `perl -e <this> ...`
# as the server's command.
#
# The keeper is named by pid and start time: its namespaces are opened first, then its start
# time is read again, so a pid reused after the keeper's exit is refused, never joined.
# Joining a user namespace needs CAP_SYS_ADMIN in it: its owner's uid has it from outside.
# After the exec the server keeps no capability there (its uid inside is its own, not 0).
#
# Arguments: <setns syscall number, or ""> <keeper pid> <keeper start time> <user: 1|0> --
# <command> <args...> (the command is looked up on PATH). Exits 126 with one line on stderr
# when the namespace cannot be entered, 127 when the command cannot be run.
#
use strict; use warnings;
my ($nr, $pid, $start, $user, $sep, @cmd) = @ARGV;
sub refuse { print STDERR "crash-drill: the server cannot enter its drill's loopback-only network: $_[0]\n"; exit 126; }
refuse('bad arguments') unless defined $sep && $sep eq '--' && @cmd;
$nr = eval { require 'syscall.ph'; &SYS_setns() } if $nr eq '';
refuse('no setns syscall number') unless defined $nr;
my $startOf = sub {
  open(my $f, '<', "/proc/$pid/stat") or return '';
  my $s = <$f>; close $f;
  return defined $s ? (split / /, substr($s, rindex($s, ')') + 2))[19] : '';
};
my @ns = ($user ? (['user', 0x10000000]) : (), ['net', 0x40000000]);
my @open;
for my $ns (@ns) {
  open(my $h, '<', "/proc/$pid/ns/$ns->[0]") or refuse("open /proc/$pid/ns/$ns->[0]: $!");
  push @open, [$h, @$ns];
}
refuse("its keeper (pid $pid) is gone") unless $startOf->() eq $start;
for my $o (@open) {
  syscall($nr, fileno($o->[0]), $o->[2]) == 0 or refuse("setns $o->[1]: $!");
  close $o->[0];
}
{ no warnings 'exec'; exec { $cmd[0] } @cmd; }
print STDERR "crash-drill: exec $cmd[0]: $!\n";
exit 127;
