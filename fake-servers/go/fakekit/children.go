// The `sleep` children the fakes' tools run, the same on every SDK: the SDK decides only what
// reaches the context a handler passes here.
package fakekit

import (
	"context"
	"fmt"
	"os/exec"
	"time"
)

// Work runs `sleep` for ms milliseconds as a child bound to ctx (exec.CommandContext: the
// context's end kills the child), as slow-tool's `slow` does.
func Work(ctx context.Context, ms int) error {
	Log.Printf("slow: working for %d ms", ms)
	if err := exec.CommandContext(ctx, "sleep", seconds(ms)).Run(); err != nil {
		Log.Printf("slow: %v (context: %v)", err, context.Cause(ctx))
		return err
	}
	return nil
}

// WorkIgnoringCancel runs `sleep` for ms milliseconds as a child it waits for, with no context
// (exec.Command, not CommandContext): nothing the SDK cancels reaches it (ignores-cancel).
func WorkIgnoringCancel(ms int) error {
	Log.Printf("slow: working for %d ms", ms)
	return exec.Command("sleep", seconds(ms)).Run()
}

// WorkIgnoringCancelUntil is WorkIgnoringCancel, and with untilCancelled it answers only once
// the SDK has also cancelled ctx, which both SDKs do when they read the request's
// notifications/cancelled (go-sdk: mcp/transport.go canceller.Preempt; mcp-go v1.2.1:
// server/request_handler.go keeps each request's cancel func for it), or at 10 s. The answer then
// follows the cancel by an event, however late the client wrote the cancel: a `sleep` of ms alone
// answered by a clock, and crossed a cancel written more than ms after the child started.
func WorkIgnoringCancelUntil(ctx context.Context, ms int, untilCancelled bool) error {
	err := WorkIgnoringCancel(ms)
	if !untilCancelled {
		return err
	}
	select {
	case <-ctx.Done():
		Log.Printf("slow: the SDK cancelled the call (%v); answering all the same", context.Cause(ctx))
	case <-time.After(10 * time.Second):
		Log.Printf("slow: no cancel within 10 s")
	}
	return err
}

// RunHelper runs `sleep 0.05` to its end (well-behaved's run-helper).
func RunHelper(ctx context.Context) error {
	return exec.CommandContext(ctx, "sleep", "0.05").Run()
}

// LeakHelper starts `sleep 300` and never waits for it or ends it (leaks-child's spawn-helper):
// the child, re-parented when the server exits, lives on. It answers with the helper's pid.
func LeakHelper() (string, error) {
	helper := exec.Command("sleep", "300")
	if err := helper.Start(); err != nil {
		return "", err
	}
	return fmt.Sprintf("helper pid %d", helper.Process.Pid), nil
}

// seconds is ms as sleep's argument.
func seconds(ms int) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }
