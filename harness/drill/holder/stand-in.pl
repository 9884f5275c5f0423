# The stand-in: the server's parent when the SDK client runs in the harness process
# (in-process-client.ts). The holder (holder.pl) forks and runs this code in the fork,
# in the client's place, with no second perl to start: harness -> holder (subreaper,
# watchdog) -> stand-in -> server. The stand-in forks and
# execs the server on the harness's pipes, reports, and waits (and stays after the server's
# exit, like a client process, until it is killed). A client crash is then the
# harness closing its ends of the server's pipes and SIGKILLing the stand-in in the same tick:
# the server sees EOF on stdin, EPIPE on stdout and its parent gone (re-parented to the holder)
# at once, as when a client process dies.
#
# Inherited descriptors: 3 the server's stdin, 4 its stdout, 5 its stderr (each a socket or
# pipe whose other end the harness holds), 6 the report pipe. The stand-in keeps none of 3-5
# (so the harness sees EOF when the server's last copy closes) and the report pipe is
# close-on-exec (the server never gets it). Signal dispositions go back to the default before
# the exec: the holder ignores SIGPIPE, and an ignored signal survives exec, while a Node
# client's spawn resets them (libuv), so a server must not inherit it.
#
# The server is spawned as the drill's client profile spawns it (harness/client-profiles/):
# in the stand-in's process group (`same`), in a group of its own (`own-group`: setpgid(0, 0))
# or a session of its own (`own-session`: setsid), with a parent-death signal set by
# prctl(PR_SET_PDEATHSIG) before the exec when the profile sets one (Goose: SIGTERM, which the
# kernel then sends the server when the stand-in dies). POSIX is loaded only for setsid.
#
# Arguments: <cwd> <group: same|own-group|own-session> <parent-death signal number, or 0>
# <prctl syscall number, or ""> -- <command> <args...> (the command is looked up on PATH, like
# Node's spawn). Reports on fd 6, one line each:
#   self <pid>                           (first: the stand-in is running)
#   spawned <pid> | spawn-error <errno name>
#   exit <code|-> <signal number|->      (the server's exit, while the stand-in lives)
#
use strict; use warnings;
$SIG{$_} = 'DEFAULT' for grep { $_ ne 'KILL' && $_ ne 'STOP' && $_ ne 'ZERO' } keys %SIG;
# _exit, without perl's cleanup in a fork (quit() of the holder, which loads POSIX only then).
my ($cwd, $group, $deathsig, $nr, $sep, @cmd) = @ARGV;
main::quit(126) unless defined $sep && $sep eq '--' && @cmd;
open(my $rep, '>&=', 6) or main::quit(126);
fcntl($rep, 2, 1); # F_SETFD, FD_CLOEXEC (Linux): the server never gets the report pipe
select((select($rep), $| = 1)[0]); # autoflush, without the IO::Handle a method call loads (about 8 ms)
# Named in the process table for what it is, not by this script's text.
$0 = "crash-drill stand-in for $cmd[0]";
print $rep "self $$\n";
my $errname = sub { my $e = $! + 0; for (keys %!) { return $_ if $!{$_}; } return "E$e"; };
# close(2) of an inherited descriptor: a handle opened on it, then closed.
my $shut = sub { for my $fd (@_) { open(my $h, '<&=', $fd) or next; close $h; } };
pipe(my $er, my $ew) or do { print $rep "spawn-error EMFILE\n"; main::quit(0); };
my $me = $$;
my $pid = fork();
if (!defined $pid) { print $rep "spawn-error EAGAIN\n"; main::quit(0); }
if ($pid == 0) {
  close $er;
  # perl keeps 0, 1 and 2 when it reopens STDIN, STDOUT and STDERR: these are dup2 onto them.
  open(STDIN, '<&', 3) or do { syswrite($ew, $errname->()); main::quit(127); };
  open(STDOUT, '>&', 4) or do { syswrite($ew, $errname->()); main::quit(127); };
  open(STDERR, '>&', 5) or do { syswrite($ew, $errname->()); main::quit(127); };
  $shut->(3, 4, 5);
  if (!chdir $cwd) { syswrite($ew, $errname->()); main::quit(127); }
  if ($group eq 'own-group') { setpgrp(0, 0) or do { syswrite($ew, $errname->()); main::quit(127); }; }
  elsif ($group eq 'own-session') { require POSIX; defined POSIX::setsid() or do { syswrite($ew, $errname->()); main::quit(127); }; }
  if ($deathsig) {
    $nr = eval { require 'syscall.ph'; &SYS_prctl() } if $nr eq '';
    # PR_SET_PDEATHSIG (1); a stand-in that died before it would never send it (Goose fails the spawn then).
    if (!defined $nr || syscall($nr, 1, $deathsig + 0, 0, 0, 0) != 0) { syswrite($ew, defined $nr ? $errname->() : 'ENOSYS'); main::quit(127); }
    if (getppid() != $me) { syswrite($ew, 'ESRCH'); main::quit(127); }
  }
  { no warnings 'exec'; exec { $cmd[0] } @cmd; }
  syswrite($ew, $errname->());
  main::quit(127);
}
close $ew;
$shut->(3, 4, 5);
my $err = '';
1 while !defined sysread($er, $err, 64) && $!{EINTR};
close $er;
# A client process outlives a server that could not start, and so does the stand-in: the drill
# still has a client to find and end.
if ($err ne '') { waitpid($pid, 0); print $rep "spawn-error $err\n"; select(undef, undef, undef, 3600) while 1; }
print $rep "spawned $pid\n";
# The server's exit is read from its zombie (/proc/PID/stat field 52, the wait status), never
# reaped here. A crash closes the harness's ends of the pipes and SIGKILLs the stand-in in one
# tick; a server that exits on that EOF before the stand-in runs again would otherwise be reaped
# by a stand-in that has its SIGKILL pending (the kernel's wait scans children before it looks at
# signals), and its exit status would be lost to everyone. Left a zombie, it goes to the holder
# (the subreaper), which reaps nothing but the stand-in until the drill is over.
pipe(my $wake, my $woken) or main::quit(0);
$SIG{CHLD} = sub { syswrite($woken, 'c'); };
my $st;
while (1) {
  if (open(my $f, '<', "/proc/$pid/stat")) {
    my $s = <$f>; close $f;
    if (defined $s) {
      my @x = split / /, substr($s, rindex($s, ')') + 2);
      if ($x[0] eq 'Z' || $x[0] eq 'X') { $st = $x[49]; last; }
    }
  } else { last; }
  my $rin = ''; vec($rin, fileno($wake), 1) = 1;
  select(my $rout = $rin, undef, undef, undef) > 0 and sysread($wake, my $drained, 64);
}
# Without a readable status (a /proc that hides it), the last resort is to reap it here.
if (!defined $st || $st !~ /^\d+$/) { waitpid($pid, 0); $st = $?; }
my ($code, $sig) = ($st & 127) ? ('-', $st & 127) : ($st >> 8, '-');
print $rep "exit $code $sig\n";
# A client does not end when its server does: the stand-in stays, as the client process would,
# until the crash's SIGKILL, containment or the holder's watchdog ends it.
select(undef, undef, undef, 3600) while 1;
