// go-sdk awaits-sampling: `ask` sends the client a sampling/createMessage request and waits for
// its answer. At stdin EOF the SDK retires every outgoing call with the read error (both
// versions: internal/jsonrpc2/conn.go Connection.readIncoming), so the handler gets an error,
// returns, and Run returns. In the 2026-07-28 era the SDK refuses to send the request at all
// (mcp/server.go ServerSession.assertServerInitiatedRequestAllowed, v1.8.0).
package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func init() { fakekit.Add("awaits-sampling", awaitsSampling) }

func awaitsSampling() {
	fake.Serve(fake.New("awaits-sampling"), &mcp.Tool{Name: "ask", Description: "Asks the client's model, and waits for the answer."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (string, error) {
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
				MaxTokens: 16,
				Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "say hi"}}},
			})
			if err != nil {
				fakekit.Log.Printf("ask: sampling failed: %v", err)
				return "", err
			}
			return "the model answered: " + res.Model, nil
		})
}
