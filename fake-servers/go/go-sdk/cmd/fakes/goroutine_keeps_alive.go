// go-sdk goroutine-keeps-alive: a worker goroutine that never ends, and main waits for it after
// Run returns (a sync.WaitGroup, the usual "wait for the workers" at the end of main). A
// goroutine alone never keeps a Go program up (the program exits when main returns); main
// waiting on it does. Only a signal ends the server: fails exit-on-eof.
package main

import (
	"sync"
	"time"

	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
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
