#!/usr/bin/perl
# spawns-after-probes: a raw MCP stdio server (2025-11-25, no module) whose calls start other
# processes around the child that matters, as published browser and shell servers do:
# - `probe-then-child`: runs the probe `sh -c 'exit 0'` to its end, then forks a child that stays
#   a fork of this server (its argv) for FAKE_EXEC_DELAY_MS (default 300) before it execs
#   `sleep 300`, as a browser launch's fork does under load. Answers `child <pid>`.
# - `two-children`: runs `sleep 0` to its end, then starts `tail -f /dev/null` and, once tail has
#   exec'd, `sleep 300`.
# - `no-child`: runs the probe, then forks a child that never execs (it sleeps in perl).
# The child-spawned point must fire on `sleep 300` (by default in the first, when named in the
# second) and never be reached in the third. At EOF it ends its children and exits 0.
use strict;
use POSIX ();
$| = 1;
$SIG{PIPE} = 'IGNORE';
my $delay = ($ENV{FAKE_EXEC_DELAY_MS} // 300) / 1000;
my @children;

# A child with stdio on /dev/null, so none holds the server's pipes; $code runs in it.
sub child {
  my ($code) = @_;
  my $pid = fork();
  die "fork: $!" unless defined $pid;
  if ($pid == 0) {
    open STDIN, '<', '/dev/null';
    open STDOUT, '>', '/dev/null';
    open STDERR, '>', '/dev/null';
    $code->();
    POSIX::_exit(127);
  }
  return $pid;
}
# Returns once the child has exec'd: perl makes the pipe close-on-exec, so its end of file is the exec.
sub spawn {
  my @argv = @_;
  pipe(my $r, my $w) or die "pipe: $!";
  my $pid = child(sub { close $r; exec { $argv[0] } @argv });
  close $w;
  my $buf;
  sysread $r, $buf, 1;
  close $r;
  return $pid;
}
sub run { waitpid spawn(@_), 0 }

while (my $line = <STDIN>) {
  my ($id) = $line =~ /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/;
  next unless defined $id;
  my ($method) = $line =~ /"method"\s*:\s*"([^"]+)"/;
  $method //= '';
  my $result;
  if ($method eq 'initialize') {
    $result = '{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"spawns-after-probes","version":"1"}}';
  } elsif ($method eq 'ping') {
    $result = '{}';
  } elsif ($method eq 'tools/list') {
    $result = '{"tools":[' . join(',', map { qq({"name":"$_","inputSchema":{"type":"object"}}) } qw(probe-then-child two-children no-child)) . ']}';
  } elsif ($method eq 'tools/call') {
    my ($tool) = $line =~ /"name"\s*:\s*"([^"]+)"/;
    $tool //= '';
    my $text;
    if ($tool eq 'probe-then-child') {
      run('sh', '-c', 'exit 0');
      my $pid = child(sub { select(undef, undef, undef, $delay); exec { 'sleep' } 'sleep', '300' });
      push @children, $pid;
      $text = "child $pid";
    } elsif ($tool eq 'two-children') {
      run('sleep', '0');
      push @children, spawn('tail', '-f', '/dev/null'), spawn('sleep', '300');
      $text = "children @children[-2, -1]";
    } elsif ($tool eq 'no-child') {
      run('sh', '-c', 'exit 0');
      push @children, child(sub { sleep 300 });
      $text = 'no child of its own';
    } else {
      print qq({"jsonrpc":"2.0","id":$id,"error":{"code":-32602,"message":"Unknown tool"}}\n);
      next;
    }
    $result = qq({"content":[{"type":"text","text":"$text"}]});
  } else {
    print qq({"jsonrpc":"2.0","id":$id,"error":{"code":-32601,"message":"Method not found"}}\n);
    next;
  }
  print qq({"jsonrpc":"2.0","id":$id,"result":$result}\n);
}
kill 'TERM', @children;
waitpid $_, 0 for @children;
exit 0;
