# The run lock's perl half (run-lock.ts): flock(2), which Node does not have, on descriptors the
# harness opened and passed in. A lock belongs to the open file description, not to this process:
# what `take` locks stays locked after perl exits, for as long as the harness keeps its
# descriptor open, and the kernel drops it when the harness dies, in whatever PID namespace.
#   take       fd 0: LOCK_EX|LOCK_NB; exit 0 when taken, 1 when not
#   probe N    fds 3..N+2: LOCK_SH|LOCK_NB each, released at once; prints one letter a descriptor:
#              h (held by someone: a live run), f (free: its run is dead), e (could not tell)
#   wait MS    fd 0: LOCK_SH, blocking, for up to MS milliseconds; exit 0 once free, 1 when not
use strict; use warnings;
use Fcntl qw(:flock);
my $mode = shift @ARGV;
if ($mode eq 'take') {
  exit(flock(STDIN, LOCK_EX | LOCK_NB) ? 0 : 1);
}
if ($mode eq 'probe') {
  my $out = '';
  for my $n (3 .. $ARGV[0] + 2) {
    my $h;
    if (!open($h, '<&=', $n)) { $out .= 'e'; next; }
    if (flock($h, LOCK_SH | LOCK_NB)) { flock($h, LOCK_UN); $out .= 'f'; }
    elsif ($!{EWOULDBLOCK}) { $out .= 'h'; }
    else { $out .= 'e'; }
  }
  print $out;
  exit 0;
}
if ($mode eq 'wait') {
  require Time::HiRes;
  $SIG{ALRM} = sub { exit 1 };
  Time::HiRes::ualarm(1000 * $ARGV[0]);
  my $ok = flock(STDIN, LOCK_SH);
  Time::HiRes::ualarm(0);
  flock(STDIN, LOCK_UN) if $ok;
  exit($ok ? 0 : 1);
}
exit 2;
