"""mcpserver-thread-keeps-alive: a non-daemon watcher thread, started before serving, never ends.

On EOF the SDK's run() returns, but the interpreter waits for every non-daemon thread before it
exits: the server stays up with its input gone. Only a signal ends it. `exit-on-eof` fails.
"""

import threading
import time

from mcp.server.mcpserver import MCPServer


def watch() -> None:
    while True:
        time.sleep(0.1)


threading.Thread(target=watch, name="watcher").start()

app = MCPServer("mcpserver-thread-keeps-alive")


@app.tool()
def echo(text: str) -> str:
    """Answers with the text it was given."""
    return text


app.run()
