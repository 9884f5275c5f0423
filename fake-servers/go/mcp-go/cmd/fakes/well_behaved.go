// mcp-go well-behaved: echo, and run-helper (runs `sleep 0.05` to its end). On stdin EOF
// ServeStdio returns nil, main returns, the process exits 0. Passes every check.
package main

import (
	"context"
	"os/exec"

	"github.com/mark3labs/mcp-go/mcp"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func wellBehaved() {
	s := fake.New("well-behaved")
	s.AddTool(mcp.NewTool("run-helper", mcp.WithDescription("Runs a short helper to its end.")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if err := exec.CommandContext(ctx, "sleep", "0.05").Run(); err != nil {
				return nil, err
			}
			return mcp.NewToolResultText("helper done"), nil
		})
	fake.Run(s)
}
