module mcp-crash-drill/fake-servers/go-http

go 1.22
