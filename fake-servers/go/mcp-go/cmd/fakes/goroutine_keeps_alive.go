// mcp-go goroutine-keeps-alive: a worker goroutine that never ends, and main waits for it after
// ServeStdio returns (a sync.WaitGroup). A goroutine alone never keeps a Go program up; main
// waiting on it does. ServeStdio catches SIGTERM and SIGINT (signal.Notify in server/stdio.go
// ServeStdio, v1.2.1) and never stops catching them, so after it returns a SIGTERM no longer
// ends the process: only SIGKILL does. Fails exit-on-eof.
package main

import (
	"sync"
	"time"

	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func goroutineKeepsAlive() {
	var workers sync.WaitGroup
	workers.Add(1)
	go func() {
		defer workers.Done()
		for range time.Tick(100 * time.Millisecond) {
		}
	}()
	fake.Run(fake.New("goroutine-keeps-alive"))
	workers.Wait()
}
