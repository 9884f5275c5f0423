// mcp-go well-behaved: echo, and run-helper (runs `sleep 0.05` to its end). On stdin EOF
// ServeStdio returns nil, main returns, the process exits 0. Passes every check.
package main

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func init() { fakekit.Add("well-behaved", wellBehaved) }

func wellBehaved() {
	fake.Serve(fake.New("well-behaved"), mcp.NewTool("run-helper", mcp.WithDescription("Runs a short helper to its end.")),
		func(ctx context.Context, _ mcp.CallToolRequest) (string, error) {
			return "helper done", fakekit.RunHelper(ctx)
		})
}
