// Package fakekit is what the Go fake servers share whatever their SDK: the one binary's choice of
// behaviour by its first argument, the behaviours that are the same code on every SDK
// (goroutine-keeps-alive, writes-after-eof: after_run.go; waits-for-signal.go), the `sleep` children the tools run
// (children.go) and the log. It imports no SDK: go-sdk's build (both versions) and mcp-go's each
// require it through a `replace` to this folder, so one source serves all three binaries.
package fakekit

import (
	"fmt"
	"log"
	"os"
	"sort"
)

// Log writes to stderr: stdout is the wire.
var Log = log.New(os.Stderr, "", log.Lmicroseconds)

var behaviours = map[string]func(){}

// Add names a behaviour of this binary; each behaviour's file adds itself from its init.
func Add(name string, run func()) { behaviours[name] = run }

// Main runs the behaviour named by the one argument, or prints the usage and exits 2. serveEcho
// serves the SDK's server with only the echo tool until stdin EOF (the SDK's run call returns):
// the SDK's part of the behaviours every SDK shares.
func Main(serveEcho func(behaviour string)) {
	Add("goroutine-keeps-alive", func() { goroutineKeepsAlive(serveEcho) })
	Add("writes-after-eof", func() { writesAfterEof(serveEcho) })
	Add("waits-for-signal", func() { waitsForSignal(serveEcho) })
	if len(os.Args) == 2 {
		if run, ok := behaviours[os.Args[1]]; ok {
			run()
			return
		}
	}
	names := make([]string, 0, len(behaviours))
	for name := range behaviours {
		names = append(names, name)
	}
	sort.Strings(names)
	fmt.Fprintf(os.Stderr, "usage: %s <behaviour>, one of %v\n", os.Args[0], names)
	os.Exit(2)
}
