// mcp-go awaits-sampling: `ask` sends the client a sampling/createMessage request and waits for
// its answer (stdioSession.RequestSampling selects on the answer or its context, server/stdio.go
// v1.2.1). At stdin EOF Listen cancels that context, so the wait ends. In the 2026-07-28 era
// mcp-go refuses to send the request unless WithLegacyServerInitiatedRequests is given
// (server/mrtr.go assertServerInitiatedRequestAllowed); this server gives it, as a server that
// needs sampling from older clients must.
package main

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func init() { fakekit.Add("awaits-sampling", awaitsSampling) }

func awaitsSampling() {
	s := fake.New("awaits-sampling", server.WithLegacyServerInitiatedRequests())
	s.EnableSampling()
	fake.Serve(s, mcp.NewTool("ask", mcp.WithDescription("Asks the client's model, and waits for the answer.")),
		func(ctx context.Context, _ mcp.CallToolRequest) (string, error) {
			res, err := server.ServerFromContext(ctx).RequestSampling(ctx, mcp.CreateMessageRequest{
				CreateMessageParams: mcp.CreateMessageParams{
					MaxTokens: 16,
					Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.TextContent{Type: "text", Text: "say hi"}}},
				},
			})
			if err != nil {
				fakekit.Log.Printf("ask: sampling failed: %v", err)
				return "", err
			}
			return "the model answered: " + res.Model, nil
		})
}
