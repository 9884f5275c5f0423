package main

import (
	"fmt"
	"strings"
)

// printTable gives one row per server and client, the kill and the close side by side.
func printTable(results []result) {
	fmt.Println("| server | client | killed (SIGKILL): the server | survivors | closed (the SDK's Close) | survivors |")
	fmt.Println("| --- | --- | --- | --- | --- | --- |")
	for i := 0; i+1 < len(results); i += 2 {
		kill, closed := results[i], results[i+1]
		fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", kill.server, kill.client, kill.exit, names(kill.survivors), closed.exit, names(closed.survivors))
	}
}

func names(survivors []string) string {
	if len(survivors) == 0 {
		return "none"
	}
	return strings.Join(survivors, "; ")
}
