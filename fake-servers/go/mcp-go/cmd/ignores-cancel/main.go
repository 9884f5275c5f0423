// mcp-go ignores-cancel: `slow` sleeps `ms` milliseconds and never looks at its context. mcp-go
// cancels the context (on notifications/cancelled: server/request_handler.go; at EOF:
// server/stdio.go StdioServer.Listen, v1.2.1), but only a handler that checks it stops; at EOF
// Listen waits for the tool worker (workerWg.Wait), so the server outlives its input by `ms`.
package main

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func main() {
	s := fake.New("ignores-cancel")
	s.AddTool(mcp.NewTool("slow", mcp.WithDescription("Works for ms milliseconds, whatever happens."), mcp.WithNumber("ms", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fake.Log.Printf("slow: working for %d ms", req.GetInt("ms", 0))
			time.Sleep(time.Duration(req.GetInt("ms", 0)) * time.Millisecond)
			return mcp.NewToolResultText("done"), nil
		})
	fake.Run(s)
}
