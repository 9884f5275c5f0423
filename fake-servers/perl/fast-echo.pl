#!/usr/bin/perl
# fast-echo: the fastest well-behaved MCP stdio server we have (2025-11-25, raw JSON-RPC, no
# module loaded): it starts in a few milliseconds, answers initialize, ping, tools/list and an
# `echo` tool, refuses server/discover (-32601) and exits 0 at stdin EOF. For benchmarks of the
# harness itself (bench/scale.ts), where a Node server's start would be most of every drill.
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
    $result = '{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fast-echo","version":"1"}}';
  } elsif ($method eq 'ping') {
    $result = '{}';
  } elsif ($method eq 'tools/list') {
    $result = '{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}';
  } elsif ($method eq 'tools/call') {
    my ($text) = $line =~ /"text"\s*:\s*"((?:[^"\\]|\\.)*)"/;
    $text //= '';
    $result = qq({"content":[{"type":"text","text":"$text"}]});
  } else {
    print qq({"jsonrpc":"2.0","id":$id,"error":{"code":-32601,"message":"Method not found"}}\n);
    next;
  }
  print qq({"jsonrpc":"2.0","id":$id,"result":$result}\n);
}
exit 0;
