module mcp-crash-drill/fake-servers/go/mcp-go

go 1.25.5

require (
	github.com/mark3labs/mcp-go v1.2.1
	mcp-crash-drill/fake-servers/go/fakekit v0.0.0
)

require (
	github.com/google/jsonschema-go v0.4.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/text v0.14.0 // indirect
)

// The SDK-independent part of the fakes, one source for every SDK build (../fakekit).
replace mcp-crash-drill/fake-servers/go/fakekit => ../fakekit
