// mcp-go leaks-child: `spawn-helper` starts `sleep 300` with os/exec and never waits for it or
// ends it (fakekit.LeakHelper). The server exits on EOF; the child, re-parented, lives on. Fails
// no-survivors.
package main

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/mcp-go/fake"
)

func init() { fakekit.Add("leaks-child", leaksChild) }

func leaksChild() {
	fake.Serve(fake.New("leaks-child"), mcp.NewTool("spawn-helper", mcp.WithDescription("Starts a helper and leaves it running.")),
		func(context.Context, mcp.CallToolRequest) (string, error) { return fakekit.LeakHelper() })
}
