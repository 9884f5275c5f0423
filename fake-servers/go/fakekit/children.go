// The `sleep` children the fakes' tools run, the same on every SDK: the SDK decides only what
// reaches the context a handler passes here.
package fakekit

import (
	"context"
	"fmt"
	"os/exec"
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
