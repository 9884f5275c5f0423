// go-http-writer: a fake MCP stdio server in Go, standard library only (net/http), the oracle
// for the drill remote's HTTPS from a non-Node runtime. Raw newline-delimited JSON-RPC 2.0.
//
// Its tools reach the remote three ways, as real Go servers do:
//   - write {op, target}: POST $FAKE_API_URL/actions, a configurable HTTPS base URL
//     ({{remote.httpsUrl}}), trusted through SSL_CERT_FILE (crypto/x509 reads it on Linux);
//   - write-hardcoded {op, target}: POST https://api.example.invalid/actions, a hard-coded
//     host reached only through HTTPS_PROXY (net/http's DefaultTransport uses
//     ProxyFromEnvironment) and the harness's intercept proxy;
//   - create {name}: POST $FAKE_API_URL/api/v1/namespaces/default/pods with no
//     Idempotency-Key: a write that is idempotent by the resource's name (a 409 AlreadyExists
//     counts as done).
//
// Every write sends the session token ($FAKE_API_TOKEN, else $CRASH_DRILL_TOKEN) and, unless
// FAKE_KEYLESS=1, the call's correlation id as its Idempotency-Key. On stdin EOF it refuses new
// calls, lets its requests in flight settle (1 s at most) and exits 0.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"
)

const name = "go-http-writer"
const hardcodedHost = "https://api.example.invalid"
const correlationKey = "dev.crash-drill/correlation-id"

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

type callParams struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments"`
	Meta      map[string]any    `json:"_meta"`
}

var (
	outMu    sync.Mutex
	stateMu  sync.Mutex
	stopping bool
	inflight sync.WaitGroup
	client   = &http.Client{Timeout: 30 * time.Second}
)

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[%s] %s\n", name, fmt.Sprintf(format, args...))
}

func send(v any) {
	line, _ := json.Marshal(v)
	outMu.Lock()
	defer outMu.Unlock()
	os.Stdout.Write(append(line, '\n'))
}

func reply(id json.RawMessage, result any) {
	send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func replyError(id json.RawMessage, code int, msg string) {
	send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}

func text(s string, isError bool) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}, "isError": isError}
}

func tools() []any {
	opTarget := map[string]any{"type": "object", "properties": map[string]any{"op": map[string]any{"type": "string"}, "target": map[string]any{"type": "string"}}, "required": []string{"op", "target"}}
	named := map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"}}
	return []any{
		map[string]any{"name": "write", "description": "POST /actions at FAKE_API_URL", "inputSchema": opTarget},
		map[string]any{"name": "write-hardcoded", "description": "POST /actions at " + hardcodedHost, "inputSchema": opTarget},
		map[string]any{"name": "create", "description": "create a pod by name at FAKE_API_URL", "inputSchema": named},
	}
}

// post sends one write and returns the tool's answer.
func post(url string, body any, key string) map[string]any {
	token := os.Getenv("FAKE_API_TOKEN")
	if token == "" {
		token = os.Getenv("CRASH_DRILL_TOKEN")
	}
	payload, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", url, bytes.NewReader(payload))
	if err != nil {
		return text("write failed: "+err.Error(), true)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	if key != "" && os.Getenv("FAKE_KEYLESS") != "1" {
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("X-Correlation-Id", key)
	}
	res, err := client.Do(req)
	if err != nil {
		return text("write failed: "+err.Error(), true)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	if res.StatusCode == http.StatusConflict {
		return text("exists", false) // created before: the write is done
	}
	if res.StatusCode >= 300 {
		return text(fmt.Sprintf("write failed: HTTP %d", res.StatusCode), true)
	}
	return text("done "+string(answer), false)
}

func call(p callParams) map[string]any {
	key, _ := p.Meta[correlationKey].(string)
	base := os.Getenv("FAKE_API_URL")
	switch p.Name {
	case "write":
		if base == "" {
			return text("write failed: FAKE_API_URL is not set", true)
		}
		return post(base+"/actions", map[string]string{"op": p.Arguments["op"], "target": p.Arguments["target"]}, key)
	case "write-hardcoded":
		return post(hardcodedHost+"/actions", map[string]string{"op": p.Arguments["op"], "target": p.Arguments["target"]}, key)
	case "create":
		if base == "" {
			return text("create failed: FAKE_API_URL is not set", true)
		}
		pod := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]string{"name": p.Arguments["name"]}}
		return post(base+"/api/v1/namespaces/default/pods", pod, "")
	}
	return nil
}

func handle(m message) {
	switch m.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(m.Params, &p)
		version := p.ProtocolVersion
		if version == "" {
			version = "2025-06-18"
		}
		reply(m.ID, map[string]any{"protocolVersion": version, "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": name, "version": "1.0.0"}})
	case "ping":
		reply(m.ID, map[string]any{})
	case "tools/list":
		reply(m.ID, map[string]any{"tools": tools()})
	case "tools/call":
		var p callParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			replyError(m.ID, -32602, "bad params")
			return
		}
		stateMu.Lock()
		if stopping {
			stateMu.Unlock()
			reply(m.ID, text("server is shutting down", true))
			return
		}
		inflight.Add(1) // before the lock goes: a shutdown either sees this call or refused it
		stateMu.Unlock()
		go func() {
			defer inflight.Done()
			if result := call(p); result != nil {
				reply(m.ID, result)
			} else {
				replyError(m.ID, -32602, "unknown tool "+p.Name)
			}
		}()
	default:
		if len(m.ID) > 0 {
			replyError(m.ID, -32601, "method not found: "+m.Method)
		}
	}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		var m message
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			continue
		}
		handle(m)
	}
	// EOF: no new call, the ones in flight settle (1 s at most), then exit.
	stateMu.Lock()
	stopping = true
	stateMu.Unlock()
	done := make(chan struct{})
	go func() { inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	logf("stdin closed: exiting")
	os.Exit(0)
}
