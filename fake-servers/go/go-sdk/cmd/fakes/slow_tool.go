// go-sdk slow-tool: `slow` runs `sleep` for `ms` milliseconds as a child bound to its context
// (exec.CommandContext: the context's end kills the child). What happens to
// it at stdin EOF is the SDK's choice: since v1.7.0 the read loop cancels every incoming
// request when it stops (internal/jsonrpc2/conn.go Connection.readIncoming), so the handler
// returns at once and Run returns; before (v1.6.1) nothing cancels it, Run waits for it
// (Connection.Wait waits until nothing is in flight) and the server outlives its input by `ms`.
// Either way its response is dropped (Connection.write refuses once the read side is broken).
package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

type slowIn struct {
	Ms int `json:"ms" jsonschema:"how long to work, in milliseconds"`
}

func slowTool() {
	s := fake.New("slow-tool")
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Works for ms milliseconds unless cancelled."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
			fake.Log.Printf("slow: working for %d ms", in.Ms)
			if err := exec.CommandContext(ctx, "sleep", seconds(in.Ms)).Run(); err != nil {
				fake.Log.Printf("slow: %v (context: %v)", err, context.Cause(ctx))
				return nil, nil, err
			}
			return fake.Text("done"), nil, nil
		})
	fake.Run(s)
}

// seconds is ms as sleep's argument.
func seconds(ms int) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }
