// mcp-go slow-tool: `slow` runs `sleep` for `ms` milliseconds as a child bound to its context
// (exec.CommandContext: the context's end kills the child). At stdin EOF
// Listen cancels the context every request was given (server/stdio.go StdioServer.Listen,
// cancelRequests, v1.2.1), so the handler returns; the worker then writes its error response
// to stdout: after a crash that write meets a broken pipe and Go dies of SIGPIPE.
package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/mark3labs/mcp-go/mcp"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func slowTool() {
	s := fake.New("slow-tool")
	s.AddTool(mcp.NewTool("slow", mcp.WithDescription("Works for ms milliseconds unless cancelled."), mcp.WithNumber("ms", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fake.Log.Printf("slow: working for %d ms", req.GetInt("ms", 0))
			if err := exec.CommandContext(ctx, "sleep", seconds(req.GetInt("ms", 0))).Run(); err != nil {
				fake.Log.Printf("slow: %v (context: %v)", err, context.Cause(ctx))
				return nil, err
			}
			return mcp.NewToolResultText("done"), nil
		})
	fake.Run(s)
}

// seconds is ms as sleep's argument.
func seconds(ms int) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }
