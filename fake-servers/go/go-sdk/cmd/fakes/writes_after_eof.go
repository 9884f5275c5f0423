// go-sdk writes-after-eof: when Run returns it writes one last JSON-RPC message (a log
// notification, "server stopped") to stdout itself. After a close the client still reads and
// the server exits 0. After a crash nobody reads: the write fails with EPIPE on fd 1, and Go's
// runtime then kills the process with SIGPIPE (os/file_unix.go epipecheck, runtime sigpipe;
// os/signal docs: "If the program is not ... handling SIGPIPE, a write to a broken pipe on
// file descriptors 1 or 2 causes the program to exit with a SIGPIPE signal"). That SIGPIPE is
// the server's own end, on its own write: exit-on-eof passes.
package main

import (
	"fmt"
	"os"

	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func writesAfterEof() {
	fake.Run(fake.New("writes-after-eof"))
	_, err := fmt.Fprintln(os.Stdout, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"server stopped"}}`)
	fake.Log.Printf("last write: %v", err)
}
