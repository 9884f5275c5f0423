// mcp-go writes-after-eof: when ServeStdio returns it writes one last JSON-RPC message (a log
// notification, "server stopped") to stdout itself. After a close the client still reads and
// the server exits 0. After a crash the write fails with EPIPE on fd 1 and Go's runtime kills
// the process with SIGPIPE (os/file_unix.go epipecheck): the server's own end, on its own write.
package main

import (
	"fmt"
	"os"

	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func writesAfterEof() {
	fake.Run(fake.New("writes-after-eof"))
	_, err := fmt.Fprintln(os.Stdout, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"server stopped"}}`)
	fake.Log.Printf("last write: %v", err)
}
