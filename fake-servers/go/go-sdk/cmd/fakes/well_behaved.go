// go-sdk well-behaved: echo, and run-helper (runs `sleep 0.05` to its end). On stdin EOF the
// SDK's Server.Run returns nil, main returns, the process exits 0. Passes every check.
package main

import (
	"context"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func wellBehaved() {
	s := fake.New("well-behaved")
	mcp.AddTool(s, &mcp.Tool{Name: "run-helper", Description: "Runs a short helper to its end."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			if err := exec.CommandContext(ctx, "sleep", "0.05").Run(); err != nil {
				return nil, nil, err
			}
			return fake.Text("helper done"), nil, nil
		})
	fake.Run(s)
}
