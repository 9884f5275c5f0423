#!/usr/bin/perl
# answers-cancelled: a raw MCP stdio server (2025-11-25, no module) whose `slow` tool works for
# 30 s as a `sleep 30` child. notifications/cancelled for the call kills the child and answers
# the call at once with -32800 "Request cancelled": nothing but the cancel could have ended a
# 30-second call, so silent-after-cancel must fail it, however soon after the cancel it is read.
use strict;
$| = 1;
$SIG{PIPE} = 'IGNORE';
my %work;    # request id (as written) => the sleep child's pid
while (my $line = <STDIN>) {
  my ($method) = $line =~ /"method"\s*:\s*"([^"]+)"/;
  $method //= '';
  if ($method eq 'notifications/cancelled') {
    my ($target) = $line =~ /"requestId"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/;
    next unless defined $target && exists $work{$target};
    kill 'KILL', delete $work{$target};
    print qq({"jsonrpc":"2.0","id":$target,"error":{"code":-32800,"message":"Request cancelled"}}\n);
    next;
  }
  my ($id) = $line =~ /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/;
  next unless defined $id;
  my $result;
  if ($method eq 'initialize') {
    $result = '{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"answers-cancelled","version":"1"}}';
  } elsif ($method eq 'ping') {
    $result = '{}';
  } elsif ($method eq 'tools/list') {
    $result = '{"tools":[{"name":"slow","inputSchema":{"type":"object"}}]}';
  } elsif ($method eq 'tools/call') {
    my $pid = fork();
    if ($pid == 0) { exec 'sleep', '30'; exit 127; }
    $work{$id} = $pid;
    next;
  } else {
    print qq({"jsonrpc":"2.0","id":$id,"error":{"code":-32601,"message":"Method not found"}}\n);
    next;
  }
  print qq({"jsonrpc":"2.0","id":$id,"result":$result}\n);
}
kill 'KILL', values %work;
exit 0;
