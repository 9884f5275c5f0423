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
# One loop, no fork: a process of the keeper's inside the namespace would be no drill's, and no one's to end.
my %conn; # fileno -> [from, to, pair]
my $drop = sub { my ($pair) = @_; for my $h (@$pair{qw(a b)}) { delete $conn{fileno $h} if defined fileno $h; close $h; } };
while (1) {
  my $rin = '';
  vec($rin, 0, 1) = 1;
  vec($rin, $_, 1) = 1 for keys %listen, keys %conn;
  my $n = select(my $rout = $rin, undef, undef, undef);
  next if $n <= 0;
  if (vec($rout, 0, 1)) { my $r = sysread(STDIN, my $b, 64); exit 0 if !$r && !$!{EINTR}; }
  for my $fd (keys %listen) {
    next unless vec($rout, $fd, 1);
    my ($l, $path) = @{$listen{$fd}};
    my $peer = accept(my $c, $l) or next;
    my ($from) = sockaddr_in($peer);
    socket(my $u, AF_UNIX, SOCK_STREAM, 0) or do { close $c; next; };
    connect($u, pack_sockaddr_un($path)) or do { close $c; close $u; next; };
    syswrite($u, "crash-drill-relay $from\n");
    my $pair = { a => $c, b => $u, open => 2 };
    $conn{fileno $c} = [$c, $u, $pair];
    $conn{fileno $u} = [$u, $c, $pair];
  }
  for my $fd (keys %conn) {
    my $entry = $conn{$fd};
    next unless $entry && vec($rout, $fd, 1);
    my ($from, $to, $pair) = @$entry;
    my $r = sysread($from, my $buf, 65536);
    if ($r) {
      my $off = 0;
      while ($off < $r) {
        my $w = syswrite($to, $buf, $r - $off, $off);
        if (!defined $w) { next if $!{EINTR}; $drop->($pair); last; }
        $off += $w;
      }
      next;
    }
    next if !defined $r && $!{EINTR};
    # End of one direction: pass the half-close on, and let go of the pair when both have ended.
    delete $conn{$fd};
    shutdown($to, 1);
    $drop->($pair) if --$pair->{open} == 0;
  }
}
