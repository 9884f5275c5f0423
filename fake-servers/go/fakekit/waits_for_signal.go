package fakekit

import (
	"os"
	"os/signal"
	"syscall"
)

// waitsForSignal: when the run call returns it waits for SIGINT or SIGTERM before it returns
// from main, as many real servers do (signal.NotifyContext around the run, then <-ctx.Done()).
// Under a client that only closes stdin, or one that crashed, nothing sends the signal: it stays
// up after EOF. Fails exit-on-eof; after a crash no-survivors too. A client's SIGTERM (the
// stop sequence of close) ends it.
func waitsForSignal(serveEcho func(string)) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	serveEcho("waits-for-signal")
	Log.Printf("waiting for a signal")
	got := <-signals
	Log.Printf("%v: exiting", got)
}
