package main

import (
	"context"
	"os/exec"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

type mcpGo struct{ c *client.Client }

func (m mcpGo) call(ctx context.Context, tool string, args map[string]any) error {
	_, err := m.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	return err
}

func (m mcpGo) close() error { return m.c.Close() }

type sampler struct{ p *points }

func (s sampler) CreateMessage(ctx context.Context, _ mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return nil, s.p.declineSampling(ctx)
}

// mcpGoSession connects with mcp-go's client over its stdio transport
// (client/transport/stdio.go: Close closes stdin and the server's stderr pipe, waits 2 s,
// SIGTERM, waits 3 s, SIGKILL). A cmd.Stderr already set is respected (spawnCommand).
func mcpGoSession(ctx context.Context, cmd *exec.Cmd, version string, p *points, marker string) (session, error) {
	given := func(context.Context, string, []string, []string) (*exec.Cmd, error) { return cmd, nil }
	tr := transport.NewStdioWithOptions(cmd.Path, nil, nil, transport.WithCommandFunc(given), transport.WithCommandStderrWriter(p.stderrWatch(marker)))
	c := client.NewClient(tr, client.WithSamplingHandler(sampler{p}))
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: "groundtruth", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, req); err != nil {
		return nil, err
	}
	return mcpGo{c}, nil
}
