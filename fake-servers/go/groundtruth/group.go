package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// survivors are the live processes of the client's process group (the client, the server and
// their children; none of the fakes leaves its group).
func survivors(group int) []string {
	var out []string
	for _, pid := range groupMembers(group) {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		line := strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " "))
		out = append(out, filepath.Base(strings.SplitN(line, " ", 2)[0])+strings.TrimPrefix(line, strings.SplitN(line, " ", 2)[0]))
	}
	sort.Strings(out)
	return out
}

func groupMembers(group int) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// After "(comm)": state, ppid, pgrp.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 2 && fields[2] == strconv.Itoa(group) && fields[0] != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// endGroup kills what is left of the group (the group is this measurement's own) and reaps
// those re-parented here.
func endGroup(group int) {
	members := groupMembers(group)
	if len(members) == 0 {
		return
	}
	_ = syscall.Kill(-group, syscall.SIGKILL)
	for _, pid := range members {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	}
}
