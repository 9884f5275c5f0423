// go-sdk leaks-child: `spawn-helper` starts `sleep 300` with os/exec and never waits for it or
// ends it. The server exits on EOF; the child, re-parented, lives on. Fails no-survivors.
package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func leaksChild() {
	s := fake.New("leaks-child")
	mcp.AddTool(s, &mcp.Tool{Name: "spawn-helper", Description: "Starts a helper and leaves it running."},
		func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			helper := exec.Command("sleep", "300")
			if err := helper.Start(); err != nil {
				return nil, nil, err
			}
			return fake.Text(fmt.Sprintf("helper pid %d", helper.Process.Pid)), nil, nil
		})
	fake.Run(s)
}
