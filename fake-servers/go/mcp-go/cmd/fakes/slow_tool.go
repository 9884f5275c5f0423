// mcp-go slow-tool: `slow` runs `sleep` for `ms` milliseconds as a child bound to its context
// (exec.CommandContext: the context's end kills the child). At stdin EOF
// Listen cancels the context every request was given (server/stdio.go StdioServer.Listen,
// cancelRequests, v1.2.1), so the handler returns; the worker then writes its error response
// to stdout: after a crash that write meets a broken pipe and Go dies of SIGPIPE.
package main

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func init() { fakekit.Add("slow-tool", slowTool) }

func slowTool() {
	fake.Serve(fake.New("slow-tool"), slowToolOf("Works for ms milliseconds unless cancelled."),
		func(ctx context.Context, req mcp.CallToolRequest) (string, error) {
			return "done", fakekit.Work(ctx, req.GetInt("ms", 0))
		})
}

// slowToolOf is the `slow` tool of slow-tool and ignores-cancel: `ms`, and ignores-cancel's
// `until-cancelled`.
func slowToolOf(description string) mcp.Tool {
	return mcp.NewTool("slow", mcp.WithDescription(description), mcp.WithNumber("ms", mcp.Required()), mcp.WithBoolean("until-cancelled"))
}
