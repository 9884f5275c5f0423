// groundtruth measures what a Go fake server does when the SDK's own client loses it: the
// client is go-sdk's (mcp.CommandTransport) or mcp-go's (client/transport.Stdio), a process of
// its own that this program starts, brings to the behaviour's point, then kills with SIGKILL
// ("kill") or lets close the session the SDK's way ("close"). This program is a child subreaper
// (prctl PR_SET_CHILD_SUBREAPER), so the server, re-parented to it when the client dies, is its
// child: it reaps it and reads its exit status and time, and it finds survivors by the process
// group it gave the client. Nothing here is the harness: it is the reference the drills are
// compared with (fake-servers/go/README.md has the table).
//
//	groundtruth [-window 5s] [-parallel 4] <bin folder>...        every behaviour × client × end, a Markdown table
//	groundtruth client <go-sdk|mcp-go> <kill|close> <outside|pipe> <server binary>   the client role
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "client" {
		if len(os.Args) != 6 {
			fail("usage: groundtruth client <go-sdk|mcp-go> <kill|close> <outside|pipe> <server binary>")
		}
		runClient(os.Args[2], os.Args[3], os.Args[4], os.Args[5])
		return
	}
	window := flag.Duration("window", defaultWindow, "how long to wait for the server's exit after the loss")
	parallel := flag.Int("parallel", 4, "measurements at once")
	flag.Parse()
	if flag.NArg() == 0 {
		fail("usage: groundtruth [-window 5s] [-parallel 4] <bin folder>...")
	}
	if err := becomeSubreaper(); err != nil {
		fail("prctl(PR_SET_CHILD_SUBREAPER): %v", err)
	}
	printTable(measureAll(flag.Args(), *window, *parallel))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "groundtruth: "+format+"\n", args...)
	os.Exit(2)
}
