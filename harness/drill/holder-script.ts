/**
 * The drill holder: a tiny perl process between the harness and the drill client. It is
 * - a child subreaper (prctl(PR_SET_CHILD_SUBREAPER), unprivileged since Linux 3.4): when the
 *   client dies, the server and every process that loses its parent are re-parented to the
 *   holder instead of to init, so parent links keep reaching a double-forked, setsid daemon
 *   with an empty environment even without root and without a cgroup;
 * - the parent of the client: it reaps the client alone (waitpid on that pid) and reports its
 *   exit, and leaves every other child unreaped until the harness says the drill is over, so
 *   the observer still reads each exit status from the zombie, as it does under init;
 * - a watchdog: its stdin is a pipe from the harness. "done" ends it quietly; end of file
 *   without "done" means the harness died, and it ends every descendant (TERM, wait, then KILL
 *   in rounds: a killed child's children are re-parented to it, so the rounds reach them all).
 *   Signalling its own unreaped children is safe by identity: a pid cannot be reused until its
 *   parent reaps it.
 *
 * perl, because perl-base is essential on Debian and Ubuntu and its `syscall` reaches prctl;
 * Node has no prctl. The flag does not survive fork, so it is set in the holder itself.
 *
 * Arguments: <cgroup.procs path or ""> <fds to close in the holder, comma-separated> <record
 * file or ""> -- <command> <args...>. Reports on stdout, one line each:
 *   subreaper 1 | subreaper 0 <reason>
 *   child <pid>
 *   exit <code|-> <signal number|->          (the client's exit)
 *   watchdog <number of processes signalled>   (only when the harness died)
 */
export const HOLDER_SCRIPT = String.raw`
use strict; use warnings; use POSIX ();
$| = 1;
my ($procs, $closefds, $record, $sep, @cmd) = @ARGV;
die "holder: usage\n" unless defined $sep && $sep eq '--' && @cmd;
my %prctl = (x86_64 => 157, aarch64 => 167, riscv64 => 167, i686 => 172, i386 => 172, armv7l => 172, armv6l => 172, ppc64le => 171, ppc64 => 171, s390x => 172, loongarch64 => 167);
my $nr = eval { require 'syscall.ph'; &SYS_prctl() } // $prctl{(POSIX::uname())[4]};
if (!defined $nr) { print "subreaper 0 no prctl number for this architecture\n"; }
elsif (syscall($nr, 36, 1, 0, 0, 0) == 0) { print "subreaper 1\n"; }
else { print "subreaper 0 prctl failed: $!\n"; }

my $child = fork();
die "holder: fork: $!\n" unless defined $child;
if ($child == 0) {
  if ($procs ne '' && open(my $fh, '>>', $procs)) { print $fh "$$\n"; close $fh; }
  open(STDIN, '<', '/dev/null'); open(STDOUT, '>', '/dev/null');
  exec { $cmd[0] } @cmd or do { print STDERR "holder: exec $cmd[0]: $!\n"; POSIX::_exit(127); };
}
POSIX::close($_) for grep { /^\d+$/ } split /,/, $closefds;
print "child $child\n";

my $chld = 0;
$SIG{CHLD} = sub { $chld = 1 };
my ($buf, $done, $clientDone) = ('', 0, 0);
sub reap_client {
  return if $clientDone;
  my $r = waitpid($child, POSIX::WNOHANG());
  return unless $r == $child;
  $clientDone = 1;
  my $st = $?;
  my ($code, $sig) = ($st & 127) ? ('-', $st & 127) : ($st >> 8, '-');
  print "exit $code $sig\n";
}
while (1) {
  reap_client();
  my $rin = ''; vec($rin, 0, 1) = 1;
  my $n = select(my $rout = $rin, undef, undef, $clientDone ? undef : 0.1);
  next if $n <= 0;
  my $got = sysread(STDIN, $buf, 4096, length $buf);
  next if !defined $got && $!{EINTR};
  if ($buf =~ /^done$/m) { $done = 1; last; }
  last if !$got;
}
if (!$done) {
  my $signalled = 0;
  my $children = sub {
    my @pids;
    opendir(my $d, '/proc') or return ();
    for my $p (grep { /^\d+$/ } readdir $d) {
      open(my $f, '<', "/proc/$p/stat") or next; my $s = <$f>; close $f;
      next unless defined $s && $s =~ /\)\s+(\S)\s+(\d+)/;
      push @pids, $p if $2 == $$ && $1 ne 'Z' && $1 ne 'X';
    }
    return @pids;
  };
  my @first = $children->();
  $signalled += kill('TERM', @first) if @first;
  for (1 .. 20) { last unless $children->(); select(undef, undef, undef, 0.05); }
  for (1 .. 50) {
    my @left = $children->();
    last unless @left;
    $signalled += kill('KILL', @left);
    select(undef, undef, undef, 0.02);
  }
  print "watchdog $signalled\n";
  if ($record ne '' && open(my $fh, '>>', $record)) { print $fh "{\"holder\":$$,\"signalled\":$signalled,\"at\":\"" . POSIX::strftime('%Y-%m-%dT%H:%M:%SZ', gmtime) . "\"}\n"; close $fh; }
}
1 while waitpid(-1, POSIX::WNOHANG()) > 0;
POSIX::_exit(0);
`;
