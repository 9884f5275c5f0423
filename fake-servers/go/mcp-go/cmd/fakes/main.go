// The mcp-go fake servers, one binary: its first argument names the behaviour, each in a file of
// its own here (well_behaved.go, slow_tool.go, ...), written as that SDK's own examples write a
// stdio server. One binary instead of one per behaviour, because linking is most of a cold Go
// build (fake-servers/go/README.md, "Building").
package main

import (
	"fmt"
	"os"
	"sort"
)

var behaviours = map[string]func(){
	"well-behaved":          wellBehaved,
	"slow-tool":             slowTool,
	"ignores-cancel":        ignoresCancel,
	"awaits-sampling":       awaitsSampling,
	"leaks-child":           leaksChild,
	"goroutine-keeps-alive": goroutineKeepsAlive,
	"writes-after-eof":      writesAfterEof,
}

func main() {
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
