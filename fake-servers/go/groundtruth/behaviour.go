package main

import (
	"os/exec"
	"path/filepath"
	"sort"
)

// A behaviour's script for the measuring client: the tool to call, its arguments, and how the
// client knows the server is at the point: when the call has been answered (idle after a call),
// when the server's stderr shows its handler started, or when the server asked the client for
// sampling. The fakes' own files say what each does (fake-servers/go/*/cmd/fakes/<behaviour>.go).
type script struct {
	tool string
	args map[string]any
	// wait for the call's answer before the loss; otherwise the call stays in flight.
	answered bool
	// a line the handler writes on stderr when it starts (the call is in flight and dispatched).
	started string
	// the server asks the client for sampling: the point is the client's handler being called.
	sampling bool
}

var scripts = map[string]script{
	"well-behaved":          {tool: "echo", args: map[string]any{"text": "hi"}, answered: true},
	"goroutine-keeps-alive": {tool: "echo", args: map[string]any{"text": "hi"}, answered: true},
	"writes-after-eof":      {tool: "echo", args: map[string]any{"text": "hi"}, answered: true},
	"leaks-child":           {tool: "spawn-helper", args: map[string]any{}, answered: true},
	"slow-tool":             {tool: "slow", args: map[string]any{"ms": 30000}, started: "slow: working"},
	"ignores-cancel":        {tool: "slow", args: map[string]any{"ms": 30000}, started: "slow: working"},
	"awaits-sampling":       {tool: "ask", args: map[string]any{}, sampling: true},
}

func behaviourOf(binary string) (string, script, bool) {
	name := filepath.Base(binary)
	s, ok := scripts[name]
	return name, s, ok
}

// Each SDK build is one binary, bin/<build>/fakes, whose first argument names the behaviour; a
// fake is named here as <bin folder>/<behaviour>, as the tables show it.
const fakesBinary = "fakes"

// fakeCommand is the command that runs a fake named <bin folder>/<behaviour>.
func fakeCommand(fake string) *exec.Cmd {
	return exec.Command(filepath.Join(filepath.Dir(fake), fakesBinary), filepath.Base(fake))
}

// behaviourNames lists the behaviours with a script, sorted.
func behaviourNames() []string {
	names := make([]string, 0, len(scripts))
	for name := range scripts {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
