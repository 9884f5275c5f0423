// mcp-go leaks-child: `spawn-helper` starts `sleep 300` with os/exec and never waits for it or
// ends it. The server exits on EOF; the child, re-parented, lives on. Fails no-survivors.
package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/mark3labs/mcp-go/mcp"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func leaksChild() {
	s := fake.New("leaks-child")
	s.AddTool(mcp.NewTool("spawn-helper", mcp.WithDescription("Starts a helper and leaves it running.")),
		func(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			helper := exec.Command("sleep", "300")
			if err := helper.Start(); err != nil {
				return nil, err
			}
			return mcp.NewToolResultText(fmt.Sprintf("helper pid %d", helper.Process.Pid)), nil
		})
	fake.Run(s)
}
