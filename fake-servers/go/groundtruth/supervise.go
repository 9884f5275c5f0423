package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

const defaultWindow = 5 * time.Second

// result is one measurement: a server, a client variant, an end.
type result struct {
	server, client, end string
	exit                string
	survivors           []string
}

// variants: the client, and where the server's stderr goes (client.go says why it matters).
var variants = []struct{ client, stderr string }{{"go-sdk", "outside"}, {"mcp-go", "outside"}, {"mcp-go", "pipe"}}

func variantName(client, stderr string) string {
	if stderr == "pipe" {
		return client + ", stderr piped into the client"
	}
	return client
}

func becomeSubreaper() error {
	const prSetChildSubreaper = 36 // linux/prctl.h
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// measureAll runs every binary of the folders with each client it is measured with, both ends.
func measureAll(folders []string, window time.Duration, parallel int) []result {
	type job struct{ binary, client, stderr, end string }
	var jobs []job
	for _, dir := range folders {
		if _, err := os.Stat(filepath.Join(dir, fakesBinary)); err != nil {
			fail("%v", err)
		}
		for _, name := range behaviourNames() {
			for _, v := range variants {
				for _, end := range []string{"kill", "close"} {
					jobs = append(jobs, job{filepath.Join(dir, name), v.client, v.stderr, end})
				}
			}
		}
	}
	results := make([]result, len(jobs))
	slots := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			results[i] = measure(j.binary, j.client, j.stderr, j.end, window)
		}()
	}
	wg.Wait()
	return results
}

// measure starts the client role in a process group of its own, waits for its point, ends it,
// and watches the server.
func measure(binary, client, stderrTo, end string, window time.Duration) result {
	r := result{server: filepath.Base(filepath.Dir(binary)) + "/" + filepath.Base(binary), client: variantName(client, stderrTo), end: end}
	self, _ := os.Executable()
	cmd := exec.Command(self, "client", client, end, stderrTo, binary)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, _ := cmd.StdoutPipe()
	in, _ := cmd.StdinPipe()
	var serverStderr *os.File
	if stderrTo == "outside" {
		read, write, err := os.Pipe()
		if err != nil {
			fail("%v", err)
		}
		cmd.ExtraFiles = []*os.File{write}
		serverStderr = read
		defer read.Close()
		defer write.Close()
	}
	if err := cmd.Start(); err != nil {
		r.exit = "client did not start: " + err.Error()
		return r
	}
	if serverStderr != nil {
		cmd.ExtraFiles[0].Close() // only the client and the server hold the write end
		_, sc, _ := behaviourOf(binary)
		go func() {
			scan := bufio.NewScanner(serverStderr)
			for scan.Scan() {
				if sc.started != "" && strings.Contains(scan.Text(), sc.started) {
					fmt.Fprintln(in, "started")
				}
			}
		}()
	}
	group := cmd.Process.Pid
	lines := make(chan string)
	go func() {
		scan := bufio.NewScanner(out)
		for scan.Scan() {
			lines <- scan.Text()
		}
		close(lines)
	}()
	server := 0
	for line := range lines {
		if strings.HasPrefix(line, "server ") {
			server, _ = strconv.Atoi(strings.TrimPrefix(line, "server "))
		}
		if line == "ready" {
			break
		}
	}
	if server == 0 {
		_ = cmd.Wait()
		r.exit = "the client never reached the point: " + lastLine(stderr.String())
		return r
	}
	if end == "kill" {
		lost := time.Now()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		// The client is dead and reaped: the server is re-parented to this subreaper.
		r.exit = awaitExit(server, lost, window)
	} else {
		for line := range lines {
			if strings.HasPrefix(line, "closed ") {
				ms, how, _ := strings.Cut(strings.TrimPrefix(line, "closed "), " ")
				r.exit = fmt.Sprintf("Close returned after %s ms: %s", ms, how)
			}
		}
		_ = cmd.Wait()
		if r.exit == "" {
			r.exit = "the client died: " + lastLine(stderr.String())
		}
	}
	r.survivors = survivors(group)
	endGroup(group)
	return r
}

// awaitExit reaps the server, or says it still ran when the window closed (then ends it).
func awaitExit(pid int, lost time.Time, window time.Duration) string {
	done := make(chan string, 1)
	go func() {
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			done <- "not reaped: " + err.Error()
			return
		}
		ms := time.Since(lost).Milliseconds()
		if ws.Signaled() {
			done <- fmt.Sprintf("%s after %d ms", signalName(ws.Signal()), ms)
		} else {
			done <- fmt.Sprintf("exit %d after %d ms", ws.ExitStatus(), ms)
		}
	}()
	select {
	case how := <-done:
		return how
	case <-time.After(window):
		return fmt.Sprintf("still running %d ms after the loss", window.Milliseconds())
	}
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGKILL:
		return "SIGKILL"
	}
	return s.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
