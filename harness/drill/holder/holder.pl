# The drill holder: a tiny perl process between the harness and the drill client. It is
# - a child subreaper (prctl(PR_SET_CHILD_SUBREAPER), unprivileged since Linux 3.4): when the
#   client dies, the server and every process that loses its parent are re-parented to the
#   holder instead of to init, so parent links keep reaching a double-forked, setsid daemon
#   with an empty environment even without root and without a cgroup;
# - the parent of the client: it reaps the client alone (waitpid on that pid) and reports its
#   exit, and leaves every other child unreaped until the harness says the drill is over, so
#   the observer still reads each exit status from the zombie, as it does under init;
# - a watchdog: its stdin is a pipe from the harness. "done" ends it quietly; end of file
#   without "done" means the harness died, and it ends every descendant: TERM to all at once,
#   wait up to 500 ms, cgroup.kill the drill cgroup when there is one, KILL what is left, in
#   rounds until nothing is below it. Descendants are
#   found by parent links read in one pass over /proc (nothing below a subreaper can leave its
#   subtree), and each is re-identified by its start time right before each signal.
#
# perl, because perl-base is essential on Debian and Ubuntu and its `syscall` reaches prctl;
# Node has no prctl. The flag does not survive fork, so it is set in the holder itself. It
# loads no module on the way of a drill (POSIX alone cost about 10 ms of CPU per holder): the
# prctl number comes from the harness (holder.ts, by process.arch), WNOHANG is 1 on Linux,
# descriptors are closed through a handle opened on them, and POSIX is required only on the
# rare paths (an exec that failed, the watchdog's record).
#
# Arguments: <cgroup.procs path or ""> <fds to close in the holder, comma-separated> <record
# file or ""> <drill id or ""> <prctl syscall number or ""> -- <command> <args...>. Or, for a
# spare started before its drill is known (holder-pool.ts): --wait <prctl number or ""> <fds to
# close> <command...>; it reports "ready" and reads the rest from its control pipe, in one line:
# go x<hex cgroup.procs> x<hex record file> x<hex drill id> x<hex NUL-separated environment>
# x<hex argument>... (appended to the command); the client gets that environment. A command
# of `-e <perl code> <args...>`
# runs that code in the holder's fork instead of exec'ing (the in-process client's stand-in:
# one perl start per drill, not two). The holder itself carries no drill
# marker (a sweep of a dead run must not end it before its watchdog is done); it gives the
# client CRASH_DRILL_RUN=<drill id>. Reports on stdout, one line each:
#   subreaper 1 | subreaper 0 <reason>
#   child <pid>
#   exit <code|-> <signal number|-> <cpu|->  (the client's exit; cpu: its utime + stime in clock ticks)
#   watchdog <number of processes signalled>   (only when the harness died)
#   chld                                     (a SIGCHLD: a child of the holder exited or stopped)
#   reaping <n>                              (after "done" or the watchdog: n children not yet reaped, waited for)
# With a record file, the watchdog appends one JSON line per process it ended (drill id, pid,
# start time read before the signal, argv, how it ended), so the next
# run can report what a killed harness left and how it was contained. The file is made with
# O_CREAT|O_EXCL|O_NOFOLLOW (0600) or opened with O_NOFOLLOW when it exists, and written only
# when fstat says a regular file of the holder's effective uid (harness/registry/own-files.ts).
#
use strict; use warnings;
$| = 1;
# Its stdout and stderr are pipes to the harness: once the harness is dead a write must fail, not kill.
$SIG{PIPE} = 'IGNORE';
my ($procs, $closefds, $record, $drill, $prctl, $sep, @cmd);
# "--wait": a spare, started before its drill (holder-pool.ts); the rest comes on the control pipe.
my $waiting = @ARGV && $ARGV[0] eq '--wait';
if ($waiting) { (undef, $prctl, $closefds, @cmd) = @ARGV; }
else {
  ($procs, $closefds, $record, $drill, $prctl, $sep, @cmd) = @ARGV;
  die "holder: usage\n" unless defined $sep && $sep eq '--' && @cmd;
}
# Without a number from the harness (an architecture it does not know), syscall.ph has it (about 20 ms of CPU).
my $nr = $prctl ne '' ? $prctl : eval { require 'syscall.ph'; &SYS_prctl() };
if (!defined $nr) { print "subreaper 0 no prctl number for this architecture\n"; }
elsif (syscall($nr, 36, 1, 0, 0, 0) == 0) { print "subreaper 1\n"; }
else { print "subreaper 0 prctl failed: $!\n"; }
# _exit, without perl's cleanup in a fork; POSIX is loaded only here, on a path no drill takes.
sub quit { require POSIX; POSIX::_exit($_[0]); }

# The stand-in's code ("-e <code>") is compiled here, before the fork: a spare has it ready before its go line.
my $client = ($cmd[0] eq '-e' && @cmd >= 2) ? (eval "sub { $cmd[1]\n}" // do { print STDERR "holder: client code: $@"; sub { quit(126) } }) : undef;

# A spare reads its drill from the control pipe: one line "go" then fields, each "x" and its hex:
# cgroup.procs, record file, drill id, the client's environment (NUL-separated NAME=value), then
# the arguments appended to the command. End of file first: the run is over, nothing to hold.
my ($buf, %env) = ('');
if ($waiting) {
  print "ready\n";
  while ($buf !~ /\n/) {
    my $got = sysread(STDIN, $buf, 65536, length $buf);
    next if !defined $got && $!{EINTR};
    exit 0 if !$got;
  }
  $buf =~ s/^([^\n]*)\n//;
  my ($word, @f) = split / /, $1;
  exit 0 unless $word eq 'go' && @f >= 4;
  ($procs, $record, $drill, my $envs, my @extra) = map { pack('H*', substr($_, 1)) } @f;
  %env = map { /^([^=]*)=(.*)$/s ? ($1, $2) : () } grep { length } split /\0/, $envs;
  push @cmd, @extra;
  die "holder: no command\n" unless @cmd;
}

my $child = fork();
die "holder: fork: $!\n" unless defined $child;
if ($child == 0) {
  if ($procs ne '' && open(my $fh, '>>', $procs)) { print $fh "$$\n"; close $fh; }
  open(STDIN, '<', '/dev/null'); open(STDOUT, '>', '/dev/null');
  %ENV = %env if $waiting;
  $ENV{CRASH_DRILL_RUN} = $drill if $drill ne '';
  # "-e <perl code> <args...>" (the stand-in): run the code in this fork, with no second perl
  # to start. It sets its own signal dispositions and name, and never returns.
  if ($client) {
    @ARGV = @cmd[2 .. $#cmd];
    eval { $client->() };
    print STDERR "holder: client code: $@" if $@;
    quit(126);
  }
  exec { $cmd[0] } @cmd or do { print STDERR "holder: exec $cmd[0]: $!\n"; quit(127); };
}
# close(2) of an inherited descriptor: a handle opened on it, then closed.
for my $fd (grep { /^\d+$/ } split /,/, $closefds) { open(my $h, '<&=', $fd) or next; close $h; }
print "child $child\n";

# SIGCHLD: the client's exit, or that of a process re-parented to the holder (the server after a
# crash, its orphans). Each wakes the loop through a pipe of its own (a signal that comes just
# before select() still makes it return) and is reported as "chld", so the harness looks for the
# server's exit the moment it is a zombie instead of at its next poll.
pipe(my $wake, my $woken) or die "holder: pipe: $!\n";
my $chld = 0;
$SIG{CHLD} = sub { return if $chld; $chld = 1; syswrite($woken, 'c'); };
my ($done, $clientDone) = (0, 0);
sub reap_client {
  return if $clientDone;
  # The client's own CPU (utime + stime, clock ticks), read from its zombie before the reap: the
  # one moment it is final and still readable. So the client is reaped only once it was seen a
  # zombie (it stays one until then); "-" only where its stat could not be read at all.
  my $cpu = '-';
  if (open(my $f, '<', "/proc/$child/stat")) {
    my $s = <$f>; close $f;
    if (defined $s) {
      my @x = split / /, substr($s, rindex($s, ')') + 2);
      return unless $x[0] eq 'Z';
      $cpu = $x[11] + $x[12];
    }
  }
  my $r = waitpid($child, 1); # WNOHANG
  return unless $r == $child;
  $clientDone = 1;
  my $st = $?;
  my ($code, $sig) = ($st & 127) ? ('-', $st & 127) : ($st >> 8, '-');
  print "exit $code $sig $cpu\n";
}
while (1) {
  reap_client();
  if ($buf =~ /^done$/m) { $done = 1; last; }
  my $rin = ''; vec($rin, 0, 1) = 1; vec($rin, fileno($wake), 1) = 1;
  my $n = select(my $rout = $rin, undef, undef, $clientDone ? undef : 0.1);
  next if $n <= 0;
  if (vec($rout, fileno($wake), 1)) {
    # Drained, then cleared: a SIGCHLD between the two writes nothing, and the "chld" below
    # (printed after it) covers it; one after the clear writes again.
    sysread($wake, my $drained, 64); $chld = 0;
    print "chld\n";
  }
  next unless vec($rout, 0, 1);
  my $got = sysread(STDIN, $buf, 4096, length $buf);
  next if !defined $got && $!{EINTR};
  if ($buf =~ /^done$/m) { $done = 1; last; }
  last if !$got;
}
if (!$done) {
  my (%rec, @order);
  # Every process below the holder, with its start time: parent links from /proc, read at once.
  my $descendants = sub {
    my (%ppid, %start, %state);
    opendir(my $d, '/proc') or return ();
    for my $p (grep { /^\d+$/ } readdir $d) {
      open(my $f, '<', "/proc/$p/stat") or next; my $s = <$f>; close $f;
      next unless defined $s;
      my @x = split / /, substr($s, rindex($s, ')') + 2);
      ($state{$p}, $ppid{$p}, $start{$p}) = ($x[0], $x[1], $x[19]);
    }
    my %below = ($$ => 1); my $grew = 1;
    while ($grew) { $grew = 0; for my $p (keys %ppid) { if (!$below{$p} && $below{$ppid{$p}}) { $below{$p} = 1; $grew = 1; } } }
    return map { [$_, $start{$_}] } grep { $_ != $$ && $state{$_} ne 'Z' && $state{$_} ne 'X' } keys %below;
  };
  # Signal only while the pid still has the start time seen: identity, never a bare pid.
  my $same = sub { my ($p, $st) = @_; open(my $f, '<', "/proc/$p/stat") or return 0; my $s = <$f>; close $f; return 0 unless defined $s; my @x = split / /, substr($s, rindex($s, ')') + 2); return $x[19] == $st && $x[0] ne 'Z' && $x[0] ne 'X'; };
  my $info = sub {
    my ($p, $st) = @_; my @cmd;
    if (open(my $f, '<', "/proc/$p/cmdline")) { local $/; my $c = <$f> // ''; close $f; @cmd = split /\0/, $c; }
    return { start => $st, cmd => \@cmd, end => 'SIGTERM' };
  };
  my $json = sub { my $v = shift; $v =~ s/(["\\])/\\$1/g; $v =~ s/([\x00-\x1f])/sprintf('\\u%04x', ord $1)/ge; return "\"$v\""; };
  for my $round (1 .. 10) {
    my @live = $descendants->();
    last unless @live;
    my @new = grep { !$rec{$_->[0]} } @live;
    # Read every command line before the first signal: a server ended first may end its own
    # children at once, and a command line read after that is empty.
    for my $x (@new) { $rec{$x->[0]} = $info->(@$x); push @order, $x->[0]; }
    for my $x (@new) { kill('TERM', $x->[0]) if $same->(@$x); }
    for (1 .. 10) { last unless grep { $same->(@$_) } @new; select(undef, undef, undef, 0.05); }
    # With a drill cgroup, cgroup.kill ends everything in it at once, even a process forking
    # faster than the rounds below could follow; the rounds then catch what is outside it.
    my @before = grep { $same->(@$_) } $descendants->();
    if ($procs ne '' && @before) {
      (my $kill = $procs) =~ s/cgroup\.procs$/cgroup.kill/;
      if (open(my $k, '>', $kill)) {
        print $k "1\n"; close $k;
        for my $x (@before) { $rec{$x->[0]} ||= $info->(@$x); push @order, $x->[0] unless grep { $_ == $x->[0] } @order; $rec{$x->[0]}{end} = 'SIGKILL'; }
        select(undef, undef, undef, 0.02);
      }
    }
    my @left = grep { $same->(@$_) } $descendants->();
    for my $x (@left) { $rec{$x->[0]} ||= $info->(@$x); push @order, $x->[0] unless grep { $_ == $x->[0] } @order; $rec{$x->[0]}{end} = 'SIGKILL'; kill('KILL', $x->[0]); }
    select(undef, undef, undef, 0.02) if @left;
  }
  $rec{$_}{end} = 'survived' for grep { $same->($_, $rec{$_}{start}) } @order;
  # The record, in the run registry (harness/registry/registry.ts): made here with O_EXCL, or, when
  # another holder of the run (or its sentinel) made it first, opened as it is; never through a
  # symlink (O_NOFOLLOW), and written only when fstat says a regular file of this user. All lines
  # go in one append, so the records of holders that die together never interleave mid-line.
  my $fh;
  if ($record ne '' && @order) {
    require Fcntl;
    my $w = Fcntl::O_WRONLY() | Fcntl::O_APPEND() | Fcntl::O_NOFOLLOW() | Fcntl::O_NONBLOCK();
    undef $fh unless sysopen($fh, $record, $w | Fcntl::O_CREAT() | Fcntl::O_EXCL(), 0600) || ($!{EEXIST} && sysopen($fh, $record, $w));
  }
  if ($fh && -f $fh && (stat _)[4] == $>) {
    my $drillJson = $json->($drill);
    require POSIX;
    my $at = POSIX::strftime('%Y-%m-%dT%H:%M:%SZ', gmtime);
    my $out = '';
    for my $p (@order) {
      my $r = $rec{$p};
      $out .= "{\"drillId\":$drillJson,\"pid\":$p,\"startTime\":$r->{start},\"cmdline\":[" . join(',', map { $json->($_) } @{$r->{cmd}}) . "],\"endedBy\":\"$r->{end}\",\"by\":\"watchdog\",\"at\":\"$at\"}\n";
    }
    syswrite($fh, $out);
  }
  close $fh if $fh;
  print "watchdog " . scalar(@order) . "\n";
}
# Every child reaped before the holder exits, so that none goes to init with its exit status and
# its CPU: a process leaves its cgroup before it becomes a zombie (Linux kernel/exit.c, do_exit:
# cgroup_exit(tsk) before exit_notify(tsk, group_dead), in 5.x and 6.x alike), so
# the harness, which reads a cgroup's members, can say "done" while a process is between the two.
# While a child is left after the first pass, the holder waits for each exit (a blocking
# waitpid, until ECHILD), 1 s at most (what is alive then was not ended by containment, and is
# left to init, as before).
1 while waitpid(-1, 1) > 0;
if (open(my $f, '<', "/proc/$$/task/$$/children")) {
  my $left = scalar(() = (<$f> // '') =~ /\d+/g);
  close $f;
  if ($left) {
    print "reaping $left\n";
    $SIG{CHLD} = 'DEFAULT';
    eval {
      local $SIG{ALRM} = sub { die "alarm\n" };
      alarm 1;
      1 while waitpid(-1, 0) > 0;
      alarm 0;
    };
  }
}
exit 0;
