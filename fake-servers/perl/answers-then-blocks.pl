#!/usr/bin/perl
# answers-then-blocks: a raw MCP stdio server (2025-11-25, no module) whose `slow` tool answers
# "done" at once, and only then starts a `sleep 30` child and waits for it without reading its
# input. At the kill point child-spawned the answer is already in the pipe, unread (the client
# holds responses there), and the server never reads the cancel while the drill watches: the
# answer crossed the cancel, so silent-after-cancel must pass it (the client reads it before it
# writes the cancel). The follow-up tools/list goes unanswered (alive-after-cancel fails) and
# the child outlives the cancel (stops-after-cancel fails).
use strict;
$| = 1;
$SIG{PIPE} = 'IGNORE';
while (my $line = <STDIN>) {
  my ($id) = $line =~ /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/;
  next unless defined $id;
  my ($method) = $line =~ /"method"\s*:\s*"([^"]+)"/;
  $method //= '';
  my $result;
  if ($method eq 'initialize') {
    $result = '{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"answers-then-blocks","version":"1"}}';
  } elsif ($method eq 'ping') {
    $result = '{}';
  } elsif ($method eq 'tools/list') {
    $result = '{"tools":[{"name":"slow","inputSchema":{"type":"object"}}]}';
  } elsif ($method eq 'tools/call') {
    print qq({"jsonrpc":"2.0","id":$id,"result":{"content":[{"type":"text","text":"done"}]}}\n);
    my $pid = fork();
    if ($pid == 0) { exec 'sleep', '30'; exit 127; }
    waitpid $pid, 0;
    next;
  } else {
    print qq({"jsonrpc":"2.0","id":$id,"error":{"code":-32601,"message":"Method not found"}}\n);
    next;
  }
  print qq({"jsonrpc":"2.0","id":$id,"result":$result}\n);
}
exit 0;
