"""mcpserver-stdout-noise: prints a banner to stdout before serving; otherwise well-behaved.

While it serves, the SDK points fd 1 at stderr, so a print in a handler misses the wire; a print
before run() does not. flush=True: unflushed, the line would wait in sys.stdout's buffer until
the interpreter's exit. `stdout-clean` fails.
"""

from mcp.server.mcpserver import MCPServer

app = MCPServer("mcpserver-stdout-noise")


@app.tool()
def echo(text: str) -> str:
    """Answers with the text it was given."""
    return text


print("mcpserver-stdout-noise: starting on stdio", flush=True)
app.run()
