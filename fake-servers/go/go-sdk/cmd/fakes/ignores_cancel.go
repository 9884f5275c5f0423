// go-sdk ignores-cancel: `slow` runs `sleep` for `ms` milliseconds as a child it waits for, with
// no context (exec.Command, not CommandContext): it never looks at its context. The SDK
// cancels the context (on notifications/cancelled: mcp/transport.go canceller.Preempt; at EOF
// since v1.7.0: internal/jsonrpc2/conn.go Connection.readIncoming), but only a handler that
// checks it stops. After a cancel its response still goes out when the sleep ends
// (Connection.processResult writes it); at EOF Run waits for it, in every version. With
// `until-cancelled` it also waits, after the sleep, for the context's end (the cancel read).
package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func init() { fakekit.Add("ignores-cancel", ignoresCancel) }

func ignoresCancel() {
	fake.Serve(fake.New("ignores-cancel"), &mcp.Tool{Name: "slow", Description: "Works for ms milliseconds, whatever happens."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in slowIn) (string, error) {
			return "done", fakekit.WorkIgnoringCancelUntil(ctx, in.Ms, in.UntilCancelled)
		})
}
