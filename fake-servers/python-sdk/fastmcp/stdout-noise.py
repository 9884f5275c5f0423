"""fastmcp-stdout-noise: prints a banner to stdout before serving; otherwise well-behaved.

While it serves, the mcp SDK's stdio transport points fd 1 at stderr, so a print in a handler misses the wire; a print
before run() does not. flush=True: unflushed, the line would wait in sys.stdout's buffer until
the interpreter's exit. `stdout-clean` fails.
"""

from fastmcp import FastMCP

app = FastMCP("fastmcp-stdout-noise")


@app.tool
def echo(text: str) -> str:
    """Answers with the text it was given."""
    return text


print("fastmcp-stdout-noise: starting on stdio", flush=True)
# No banner: FastMCP's banner asks PyPI for a newer version (the network, a cache file in HOME).
app.run(show_banner=False)
