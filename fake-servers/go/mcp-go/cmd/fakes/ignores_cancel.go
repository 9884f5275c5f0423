// mcp-go ignores-cancel: `slow` runs `sleep` for `ms` milliseconds as a child it waits for, with
// no context (exec.Command, not CommandContext): it never looks at its context. mcp-go
// cancels the context (on notifications/cancelled: server/request_handler.go; at EOF:
// server/stdio.go StdioServer.Listen, v1.2.1), but only a handler that checks it stops; at EOF
// Listen waits for the tool worker (workerWg.Wait), so the server outlives its input by `ms`.
package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/mark3labs/mcp-go/mcp"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func ignoresCancel() {
	s := fake.New("ignores-cancel")
	s.AddTool(mcp.NewTool("slow", mcp.WithDescription("Works for ms milliseconds, whatever happens."), mcp.WithNumber("ms", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ms := req.GetInt("ms", 0)
			fake.Log.Printf("slow: working for %d ms", ms)
			if err := exec.Command("sleep", fmt.Sprintf("%.3f", float64(ms)/1000)).Run(); err != nil {
				return nil, err
			}
			return mcp.NewToolResultText("done"), nil
		})
	fake.Run(s)
}
