# The keeper of a drill's loopback-only network (harness/drill/network/namespace.ts): it makes a
# network namespace where only `lo` exists, brings `lo` up, and relays the drill remote's ports
# into it. The server joins this namespace (join.pl) and keeps its own pid; the keeper is not the
# server's ancestor, so it is never one of the drill's processes.
#
# As root (euid 0) the namespace is a plain unshare(CLONE_NEWNET). Otherwise, or where root may
# not (no CAP_SYS_ADMIN, as in a default container), it is a user namespace with a network
# namespace owned by it, the keeper's uid and gid mapped to themselves (`uid uid 1`), so the
# server sees its own uid, and files it writes are owned by it on the host, as without the
# namespace. setgroups is denied in it (the kernel's condition for an unprivileged gid_map).
#
# The remote listens on the host's loopback, which a new network namespace cannot reach. So for
# each `<port> <unix socket path>` the keeper listens on 127.0.0.1:<port> inside, and relays each
# connection to the path (a unix socket in the file system, which crosses network namespaces)
# where the harness listens and connects to the same port on the host's loopback (relay.ts).
# The first line on each relayed connection is `crash-drill-relay <sender's port>\n`: the
# harness names the sender from it. The URLs the server was given work unchanged, TLS included
# (the relay moves bytes).
#
# Arguments: <unshare syscall number, or ""> -- [<port> <path>]...
# Reports on stdout, one line: `ready <how: net|user>`, or `refused <stage> <errno name>` and exit 1.
# Ends at end of file on stdin (the harness closed it, or died).
#
use strict; use warnings;
use Socket qw(AF_INET AF_UNIX SOCK_STREAM SOCK_DGRAM SOL_SOCKET SO_REUSEADDR INADDR_LOOPBACK pack_sockaddr_in pack_sockaddr_un sockaddr_in);
use Fcntl qw(F_GETFL F_SETFL O_NONBLOCK);
$SIG{PIPE} = 'IGNORE';
$| = 1;
my ($nr, $sep, @pairs) = @ARGV;
my $errname = sub { my $e = $! + 0; for (keys %!) { return $_ if $!{$_}; } return "E$e"; };
sub refuse { my ($stage, $err) = @_; print "refused $stage $err\n"; exit 1; }
refuse('arguments', 'EINVAL') unless defined $sep && $sep eq '--' && @pairs % 2 == 0;
$nr = eval { require 'syscall.ph'; &SYS_unshare() } if $nr eq '';
refuse('unshare', 'ENOSYS') unless defined $nr;
my ($NEWNET, $NEWUSER) = (0x40000000, 0x10000000);
my $how;
if ($> == 0 && syscall($nr, $NEWNET) == 0) { $how = 'net'; }
else {
  my $uid = $>; my ($gid) = split ' ', $);
  syscall($nr, $NEWUSER | $NEWNET) == 0 or refuse('unshare', $errname->());
  my $put = sub { my ($file, $text) = @_; open(my $f, '>', $file) or return 0; my $ok = syswrite($f, $text); close $f; return $ok; };
  # /proc/self/setgroups exists since Linux 3.19; before it, gid_map needs no such step.
  $put->('/proc/self/setgroups', "deny") or $!{ENOENT} or refuse('setgroups', $errname->());
  $put->('/proc/self/uid_map', "$uid $uid 1") or refuse('uid_map', $errname->());
  $put->('/proc/self/gid_map', "$gid $gid 1") or refuse('gid_map', $errname->());
  $how = 'user';
}
# lo is down in a new network namespace: SIOCGIFFLAGS, then SIOCSIFFLAGS with IFF_UP (struct ifreq: 16 bytes of name, a short of flags, 40 bytes in all).
socket(my $ctl, AF_INET, SOCK_DGRAM, 0) or refuse('socket', $errname->());
my $ifr = pack('Z16 s x22', 'lo');
ioctl($ctl, 0x8913, $ifr) or refuse('lo', $errname->());
my $flags = unpack('x16 s', $ifr);
ioctl($ctl, 0x8914, pack('Z16 s x22', 'lo', $flags | 1)) or refuse('lo', $errname->());
close $ctl;
my %listen;
while (my ($port, $path) = splice(@pairs, 0, 2)) {
  socket(my $l, AF_INET, SOCK_STREAM, 0) or refuse('socket', $errname->());
  setsockopt($l, SOL_SOCKET, SO_REUSEADDR, 1);
  bind($l, pack_sockaddr_in($port, INADDR_LOOPBACK)) or refuse("bind:$port", $errname->());
  listen($l, 128) or refuse("listen:$port", $errname->());
  $listen{fileno $l} = [$l, $path];
}
print "ready $how\n";
# One loop, no fork: a process of the keeper's inside the namespace would be no drill's, and no
# one's to end. Every relayed socket is non-blocking, with what is still to be written to it kept
# here (at most CAP bytes: past that its peer is not read), so a peer that stops reading (a
# stopped server) holds up only its own connection, and end of file on stdin is always seen.
my $CAP = 1 << 20;
my %sock; # fileno -> { h, peer (fileno), out, ended (end of file read from it), shut (half-close owed to it), pair }
my $nonblocking = sub { my ($h) = @_; my $f = fcntl($h, F_GETFL, 0); fcntl($h, F_SETFL, $f | O_NONBLOCK); };
my $drop = sub {
  my ($pair) = @_;
  for my $fd (@$pair) { my $s = delete $sock{$fd} or next; close $s->{h}; }
};
my $done = sub {
  my ($pair) = @_;
  my @s = map { $sock{$_} } @$pair;
  $drop->($pair) if !grep { !$_ || !$_->{ended} || $_->{out} ne '' || $_->{shut} } @s;
};
my $flush = sub {
  my ($s) = @_;
  while ($s->{out} ne '') {
    my $w = syswrite($s->{h}, $s->{out});
    if (!defined $w) { return if $!{EAGAIN} || $!{EINTR}; $drop->($s->{pair}); return; }
    substr($s->{out}, 0, $w) = '';
  }
  if ($s->{shut}) { shutdown($s->{h}, 1); $s->{shut} = 0; }
  $done->($s->{pair});
};
while (1) {
  my ($rin, $win) = ('', '');
  vec($rin, 0, 1) = 1;
  vec($rin, $_, 1) = 1 for keys %listen;
  for my $fd (keys %sock) {
    my $s = $sock{$fd};
    vec($rin, $fd, 1) = 1 if !$s->{ended} && length($sock{$s->{peer}}{out}) < $CAP;
    vec($win, $fd, 1) = 1 if $s->{out} ne '';
  }
  my $n = select(my $rout = $rin, my $wout = $win, undef, undef);
  next if $n <= 0;
  if (vec($rout, 0, 1)) { my $r = sysread(STDIN, my $b, 64); exit 0 if !$r && !$!{EINTR}; }
  for my $fd (keys %listen) {
    next unless vec($rout, $fd, 1);
    my ($l, $path) = @{$listen{$fd}};
    my $peer = accept(my $c, $l) or next;
    my ($from) = sockaddr_in($peer);
    socket(my $u, AF_UNIX, SOCK_STREAM, 0) or do { close $c; next; };
    connect($u, pack_sockaddr_un($path)) or do { close $c; close $u; next; };
    $nonblocking->($_) for $c, $u;
    my $pair = [fileno $c, fileno $u];
    $sock{fileno $c} = { h => $c, peer => fileno $u, out => '', ended => 0, shut => 0, pair => $pair };
    $sock{fileno $u} = { h => $u, peer => fileno $c, out => "crash-drill-relay $from\n", ended => 0, shut => 0, pair => $pair };
    $flush->($sock{fileno $u});
  }
  for my $fd (keys %sock) {
    my $s = $sock{$fd} or next;
    $flush->($s) if vec($wout, $fd, 1);
    $s = $sock{$fd} or next;
    next unless vec($rout, $fd, 1) && !$s->{ended};
    my $peer = $sock{$s->{peer}} or next;
    my $r = sysread($s->{h}, my $buf, 65536);
    if (!defined $r) { next if $!{EAGAIN} || $!{EINTR}; $drop->($s->{pair}); next; }
    if ($r == 0) {
      # End of one direction: the half-close is passed on once what is owed to the peer is written.
      $s->{ended} = 1;
      $peer->{shut} = 1;
    } else {
      $peer->{out} .= $buf;
    }
    $flush->($peer);
  }
}
