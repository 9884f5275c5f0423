module mcp-crash-drill/fake-servers/go/fakekit

go 1.25.0
