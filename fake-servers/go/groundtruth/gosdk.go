package main

import (
	"context"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type goSdk struct{ s *mcp.ClientSession }

func (g goSdk) call(ctx context.Context, tool string, args map[string]any) error {
	_, err := g.s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	return err
}

func (g goSdk) close() error { return g.s.Close() }

// goSdkSession connects with go-sdk's client over its CommandTransport (mcp/cmd.go: Close
// closes stdin, waits TerminateDuration, default 5 s, SIGTERM, waits, SIGKILL).
func goSdkSession(ctx context.Context, cmd *exec.Cmd, version string, p *points, marker string) (session, error) {
	if cmd.Stderr == nil {
		cmd.Stderr = p.stderrWatch(marker)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "groundtruth", Version: "1.0.0"}, &mcp.ClientOptions{
		CreateMessageHandler: func(ctx context.Context, _ *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, p.declineSampling(ctx)
		},
	})
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, err
	}
	return goSdk{s}, nil
}
