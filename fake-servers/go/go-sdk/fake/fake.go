// Package fake holds what every go-sdk fake server shares: the server, the echo tool, a tool
// whose handler answers with text, and the run on stdio written as the SDK's own examples write it
// (mcp/server_example_test.go: server.Run(ctx, &mcp.StdioTransport{})). Each cmd/fakes/<behaviour>
// file adds its one behaviour; what no SDK changes is in fake-servers/go/fakekit.
package fake

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
)

type EchoIn struct {
	Text string `json:"text" jsonschema:"the text to answer with"`
}

// New is a server named go-sdk-<behaviour> with the echo tool.
func New(behaviour string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "go-sdk-" + behaviour, Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Answers with the text it was given."},
		func(_ context.Context, _ *mcp.CallToolRequest, in EchoIn) (*mcp.CallToolResult, any, error) {
			return text(in.Text), nil, nil
		})
	return s
}

// Serve adds tool to s, whose handler answers with one text block or fails with its error (the
// SDK's error response), and runs s on stdio (Run).
func Serve[In any](s *mcp.Server, tool *mcp.Tool, handler func(context.Context, *mcp.CallToolRequest, In) (string, error)) {
	mcp.AddTool(s, tool, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		answer, err := handler(ctx, req, in)
		if err != nil {
			return nil, nil, err
		}
		return text(answer), nil, nil
	})
	Run(s)
}

// ServeEcho runs a server with only the echo tool (fakekit's goroutine-keeps-alive and
// writes-after-eof). Run returns at EOF with nothing in flight, and a SIGTERM ends the process
// after it as before it: go-sdk catches no signal.
func ServeEcho(behaviour string) { Run(New(behaviour)) }

// Run serves on stdio until the SDK's Run returns (stdin EOF, once in-flight handlers are done:
// mcp/server.go Server.Run waits on ServerSession.Wait) and logs how it returned.
func Run(s *mcp.Server) {
	err := s.Run(context.Background(), &mcp.StdioTransport{})
	fakekit.Log.Printf("Server.Run returned: %v", err)
}

// text is a tool result of one text block.
func text(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
