// go-sdk ignores-cancel: `slow` runs `sleep` for `ms` milliseconds as a child it waits for, with
// no context (exec.Command, not CommandContext): it never looks at its context. The SDK
// cancels the context (on notifications/cancelled: mcp/transport.go canceller.Preempt; at EOF
// since v1.7.0: internal/jsonrpc2/conn.go Connection.readIncoming), but only a handler that
// checks it stops. After a cancel its response still goes out when the sleep ends
// (Connection.processResult writes it); at EOF Run waits for it, in every version.
package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func ignoresCancel() {
	s := fake.New("ignores-cancel")
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Works for ms milliseconds, whatever happens."},
		func(_ context.Context, _ *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
			fake.Log.Printf("slow: working for %d ms", in.Ms)
			if err := exec.Command("sleep", fmt.Sprintf("%.3f", float64(in.Ms)/1000)).Run(); err != nil {
				return nil, nil, err
			}
			return fake.Text("done"), nil, nil
		})
	fake.Run(s)
}
