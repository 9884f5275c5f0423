// Package fake holds what every go-sdk fake server shares: the server, the echo tool, and the
// run on stdio written as the SDK's own examples write it (mcp/server_example_test.go:
// server.Run(ctx, &mcp.StdioTransport{})). Each cmd/<behaviour> adds its one behaviour.
package fake

import (
	"context"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Logs go to stderr: stdout is the wire.
var Log = log.New(os.Stderr, "", log.Lmicroseconds)

type EchoIn struct {
	Text string `json:"text" jsonschema:"the text to answer with"`
}

// New is a server named go-sdk-<behaviour> with the echo tool.
func New(behaviour string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "go-sdk-" + behaviour, Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Answers with the text it was given."},
		func(_ context.Context, _ *mcp.CallToolRequest, in EchoIn) (*mcp.CallToolResult, any, error) {
			return Text(in.Text), nil, nil
		})
	return s
}

// Text is a tool result of one text block.
func Text(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// Run serves on stdio until the SDK's Run returns (stdin EOF, once in-flight handlers are done:
// mcp/server.go Server.Run waits on ServerSession.Wait) and logs how it returned.
func Run(s *mcp.Server) {
	err := s.Run(context.Background(), &mcp.StdioTransport{})
	Log.Printf("Server.Run returned: %v", err)
}
