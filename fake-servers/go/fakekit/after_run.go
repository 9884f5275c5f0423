// The behaviours whose code is the same on every SDK: what they do after the SDK's run call
// returns. What each SDK adds to them (mcp-go's SIGTERM catching, for one) is said beside its
// serveEcho (<sdk>/fake/fake.go) and in fake-servers/go/README.md.
package fakekit

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// goroutineKeepsAlive: a worker goroutine that never ends, and main waits for it after the run
// call returns (a sync.WaitGroup, the usual "wait for the workers" at the end of main). A
// goroutine alone never keeps a Go program up (the program exits when main returns); main
// waiting on it does. Only a signal ends the server: fails exit-on-eof.
func goroutineKeepsAlive(serveEcho func(string)) {
	var workers sync.WaitGroup
	workers.Add(1)
	go func() {
		defer workers.Done()
		for range time.Tick(100 * time.Millisecond) {
		}
	}()
	serveEcho("goroutine-keeps-alive")
	workers.Wait()
}

// writesAfterEof: when the run call returns it writes one last JSON-RPC message (a log
// notification, "server stopped") to stdout itself. After a close the client still reads and
// the server exits 0. After a crash nobody reads: the write fails with EPIPE on fd 1, and Go's
// runtime then kills the process with SIGPIPE (os/file_unix.go epipecheck, runtime sigpipe;
// os/signal docs: "If the program is not ... handling SIGPIPE, a write to a broken pipe on
// file descriptors 1 or 2 causes the program to exit with a SIGPIPE signal"). That SIGPIPE is
// the server's own end, on its own write: exit-on-eof passes.
func writesAfterEof(serveEcho func(string)) {
	serveEcho("writes-after-eof")
	_, err := fmt.Fprintln(os.Stdout, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"server stopped"}}`)
	Log.Printf("last write: %v", err)
}
