package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// The client role: a session on the server with the SDK's own client, brought to the
// behaviour's point. It tells the measuring process over stdout: "server <pid>", "ready", and,
// for "close", "closed <ms> <how Close returned>". For "kill" it then waits to be killed.
//
// Where the server's stderr goes changes what a Go server does after its client died: a write
// to fd 2 with no reader kills it with SIGPIPE like one to fd 1. "outside": the measuring
// process holds it (fd 3 of this client, given to the server as is), as the harness does and as
// go-sdk's CommandTransport leaves it (a nil exec.Cmd.Stderr is the null device); the handler's
// start line then reaches this client as "started" on its stdin. "pipe": mcp-go's default, its
// transport pipes the server's stderr into the client (client/transport/stdio.go spawnCommand).

// session is what both SDKs' clients give the script.
type session interface {
	call(ctx context.Context, tool string, args map[string]any) error
	close() error
}

// points are the events a script waits for: the handler's stderr line, the sampling request.
type points struct {
	started  chan struct{}
	sampled  chan struct{}
	release  chan struct{} // closed before a close: the client's sampling handler gives up
	once     sync.Once
	sampling sync.Once
}

// declineSampling is both SDKs' client's sampling handler: it marks the request seen, holds it
// until the script releases it (before a close) or its context ends, and declines.
func (p *points) declineSampling(ctx context.Context) error {
	p.sampling.Do(func() { close(p.sampled) })
	select {
	case <-p.release:
	case <-ctx.Done():
	}
	return errors.New("the host declined: shutting down")
}

// stderrWatch copies the server's stderr to ours and closes started at the script's line.
func (p *points) stderrWatch(marker string) io.Writer {
	r, w := io.Pipe()
	go func() {
		scan := bufio.NewScanner(r)
		for scan.Scan() {
			fmt.Fprintln(os.Stderr, "server:", scan.Text())
			if marker != "" && strings.Contains(scan.Text(), marker) {
				p.once.Do(func() { close(p.started) })
			}
		}
	}()
	return w
}

func say(format string, args ...any) { fmt.Printf(format+"\n", args...) }

func runClient(sdk, end, stderr, binary string) {
	_, sc, ok := behaviourOf(binary)
	if !ok {
		fail("no script for %s", binary)
	}
	p := &points{started: make(chan struct{}), sampled: make(chan struct{}), release: make(chan struct{})}
	// Sampling is a request from the server, which both SDKs refuse to send in the 2026-07-28
	// era (go-sdk mcp/server.go assertServerInitiatedRequestAllowed, mcp-go server/mrtr.go):
	// the sampling script pins the era before it.
	version := ""
	if sc.sampling {
		version = "2025-11-25"
	}
	ctx := context.Background()
	cmd := fakeCommand(binary)
	cmd.Env = os.Environ()
	marker := sc.started
	if stderr == "outside" {
		cmd.Stderr = os.NewFile(3, "server-stderr")
		marker = ""
		go func() {
			scan := bufio.NewScanner(os.Stdin)
			for scan.Scan() {
				if scan.Text() == "started" {
					p.once.Do(func() { close(p.started) })
				}
			}
		}()
	}
	var s session
	var err error
	switch sdk {
	case "go-sdk":
		s, err = goSdkSession(ctx, cmd, version, p, marker)
	case "mcp-go":
		s, err = mcpGoSession(ctx, cmd, version, p, marker)
	default:
		fail("unknown client %q", sdk)
	}
	if err != nil {
		fail("connect: %v", err)
	}
	say("server %d", cmd.Process.Pid)
	callCtx, cancelCall := context.WithCancel(ctx)
	if sc.answered {
		if err := s.call(callCtx, sc.tool, sc.args); err != nil {
			fail("call %s: %v", sc.tool, err)
		}
	} else {
		go func() { _ = s.call(callCtx, sc.tool, sc.args) }()
		select {
		case <-p.started:
		case <-p.sampled:
		case <-time.After(20 * time.Second):
			fail("the server never reached the point of %s", binary)
		}
	}
	say("ready")
	if end == "kill" {
		select {} // the measuring process kills this client
	}
	// The SDK's close with a call in flight: go-sdk's ClientSession.Close waits until its
	// outgoing calls are done (internal/jsonrpc2/conn.go Connection.Close closes once idle), so
	// a host first ends their contexts, which sends notifications/cancelled
	// (mcp/transport.go call, cancelCall); mcp-go's Close unblocks them itself
	// (client/transport/stdio.go Stdio.Close, closeDone). The sampling handler gives up.
	close(p.release)
	if sdk == "go-sdk" {
		cancelCall()
	}
	start := time.Now()
	err = s.close()
	state := "not reaped"
	if cmd.ProcessState != nil {
		state = cmd.ProcessState.String()
	}
	say("closed %d %s (Close: %v)", time.Since(start).Milliseconds(), state, err)
	cancelCall()
}
