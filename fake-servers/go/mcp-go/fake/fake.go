// Package fake holds what every mcp-go fake server shares: the server with the echo tool, a tool
// whose handler answers with text, and the run on stdio as mcp-go's README writes it
// (server.ServeStdio). Each cmd/fakes/<behaviour> file adds its one behaviour; what no SDK changes
// is in fake-servers/go/fakekit.
package fake

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"mcp-crash-drill/fake-servers/go/fakekit"
)

// New is a server named mcp-go-<behaviour> with the echo tool.
func New(behaviour string, opts ...server.ServerOption) *server.MCPServer {
	s := server.NewMCPServer("mcp-go-"+behaviour, "1.0.0", append([]server.ServerOption{server.WithToolCapabilities(false)}, opts...)...)
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Answers with the text it was given."), mcp.WithString("text", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	return s
}

// Serve adds tool to s, whose handler answers with one text block or fails with its error (the
// SDK's error response), and runs s on stdio (Run).
func Serve(s *server.MCPServer, tool mcp.Tool, handler func(context.Context, mcp.CallToolRequest) (string, error)) {
	s.AddTool(tool, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		answer, err := handler(ctx, req)
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(answer), nil
	})
	Run(s)
}

// ServeEcho runs a server with only the echo tool (fakekit's goroutine-keeps-alive and
// writes-after-eof). ServeStdio catches SIGTERM and SIGINT (signal.Notify in server/stdio.go
// ServeStdio, v1.2.1) and never stops catching them, so once it has returned a SIGTERM no longer
// ends the process: a server that stays up after it (goroutine-keeps-alive) ends only by SIGKILL.
func ServeEcho(behaviour string) { Run(New(behaviour)) }

// Run serves on stdio until ServeStdio returns: at stdin EOF, Listen cancels its requests'
// context, closes the tool-call queue and waits for the workers (server/stdio.go
// StdioServer.Listen, v1.2.1). It logs how it returned.
func Run(s *server.MCPServer) {
	err := server.ServeStdio(s)
	fakekit.Log.Printf("ServeStdio returned: %v", err)
}
