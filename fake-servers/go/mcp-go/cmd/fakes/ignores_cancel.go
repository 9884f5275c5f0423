// mcp-go ignores-cancel: `slow` runs `sleep` for `ms` milliseconds as a child it waits for, with
// no context (exec.Command, not CommandContext): it never looks at its context. mcp-go
// cancels the context (on notifications/cancelled: server/request_handler.go; at EOF:
// server/stdio.go StdioServer.Listen, v1.2.1), but only a handler that checks it stops; at EOF
// Listen waits for the tool worker (workerWg.Wait), so the server outlives its input by `ms`.
package main

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func init() { fakekit.Add("ignores-cancel", ignoresCancel) }

func ignoresCancel() {
	fake.Serve(fake.New("ignores-cancel"), slowToolOf("Works for ms milliseconds, whatever happens."),
		func(ctx context.Context, req mcp.CallToolRequest) (string, error) {
			return "done", fakekit.WorkIgnoringCancelUntil(ctx, req.GetInt("ms", 0), req.GetBool("until-cancelled", false))
		})
}
