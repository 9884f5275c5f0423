// go-sdk leaks-child: `spawn-helper` starts `sleep 300` with os/exec and never waits for it or
// ends it (fakekit.LeakHelper). The server exits on EOF; the child, re-parented, lives on. Fails
// no-survivors.
package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mcp-crash-drill/fake-servers/go/fakekit"
	"mcp-crash-drill/fake-servers/go/go-sdk/fake"
)

func init() { fakekit.Add("leaks-child", leaksChild) }

func leaksChild() {
	fake.Serve(fake.New("leaks-child"), &mcp.Tool{Name: "spawn-helper", Description: "Starts a helper and leaves it running."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (string, error) { return fakekit.LeakHelper() })
}
