// Package fake holds what every mcp-go fake server shares: the server with the echo tool, and
// the run on stdio as mcp-go's README writes it (server.ServeStdio). Each cmd/<behaviour> adds
// its one behaviour.
package fake

import (
	"context"
	"log"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Logs go to stderr: stdout is the wire.
var Log = log.New(os.Stderr, "", log.Lmicroseconds)

// New is a server named mcp-go-<behaviour> with the echo tool.
func New(behaviour string, opts ...server.ServerOption) *server.MCPServer {
	s := server.NewMCPServer("mcp-go-"+behaviour, "1.0.0", append([]server.ServerOption{server.WithToolCapabilities(false)}, opts...)...)
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Answers with the text it was given."), mcp.WithString("text", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	return s
}

// Run serves on stdio until ServeStdio returns: at stdin EOF, Listen cancels its requests'
// context, closes the tool-call queue and waits for the workers (server/stdio.go
// StdioServer.Listen, v1.2.1). It logs how it returned.
func Run(s *server.MCPServer) {
	err := server.ServeStdio(s)
	Log.Printf("ServeStdio returned: %v", err)
}
