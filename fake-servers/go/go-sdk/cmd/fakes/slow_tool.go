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

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func init() { fakekit.Add("slow-tool", slowTool) }

type slowIn struct {
	Ms int `json:"ms" jsonschema:"how long to work, in milliseconds"`
	// UntilCancelled: ignores-cancel answers only once the SDK has read a cancel for the call.
	UntilCancelled bool `json:"until-cancelled,omitempty" jsonschema:"ignores-cancel: answer only once the call was cancelled"`
}

func slowTool() {
	fake.Serve(fake.New("slow-tool"), &mcp.Tool{Name: "slow", Description: "Works for ms milliseconds unless cancelled."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in slowIn) (string, error) {
			return "done", fakekit.Work(ctx, in.Ms)
		})
}
