// go-sdk well-behaved: echo, and run-helper (runs `sleep 0.05` to its end). On stdin EOF the
// SDK's Server.Run returns nil, main returns, the process exits 0. Passes every check.
package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func init() { fakekit.Add("well-behaved", wellBehaved) }

func wellBehaved() {
	fake.Serve(fake.New("well-behaved"), &mcp.Tool{Name: "run-helper", Description: "Runs a short helper to its end."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (string, error) {
			return "helper done", fakekit.RunHelper(ctx)
		})
}
