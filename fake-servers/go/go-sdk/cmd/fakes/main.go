// The go-sdk fake servers, one binary: its first argument names the behaviour, each in a file of
// its own here (well_behaved.go, slow_tool.go, ...) that adds itself to fakekit's list, written as
// that SDK's own examples write a stdio server; goroutine-keeps-alive and writes-after-eof, the
// same on every SDK, are fakekit's (fake-servers/go/fakekit/after_run.go). One binary instead of
// one per behaviour, because linking is most of a cold Go build (fake-servers/go/README.md,
// "Building").
package main

import (
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func main() { fakekit.Main(fake.ServeEcho) }
