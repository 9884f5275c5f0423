// go-sdk ignores-cancel: `slow` sleeps `ms` milliseconds and never looks at its context. The SDK
// cancels the context (on notifications/cancelled: mcp/transport.go canceller.Preempt; at EOF
// since v1.7.0: internal/jsonrpc2/conn.go Connection.readIncoming), but only a handler that
// checks it stops. After a cancel its response still goes out when the sleep ends
// (Connection.processResult writes it); at EOF Run waits for it, in every version.
package main

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

type slowIn struct {
	Ms int `json:"ms" jsonschema:"how long to work, in milliseconds"`
}

func main() {
	s := fake.New("ignores-cancel")
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Works for ms milliseconds, whatever happens."},
		func(_ context.Context, _ *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
			fake.Log.Printf("slow: working for %d ms", in.Ms)
			time.Sleep(time.Duration(in.Ms) * time.Millisecond)
			return fake.Text("done"), nil, nil
		})
	fake.Run(s)
}
