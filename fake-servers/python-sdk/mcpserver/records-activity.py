"""mcpserver-records-activity: an MCPServer (mcp 2.3.0) that keeps its own activity record.

Its tool `write` posts to the drill remote (CRASH_DRILL_REMOTE_URL, CRASH_DRILL_TOKEN) with the
call's correlation id as its Idempotency-Key, and records the action in the file that
CRASH_DRILL_ACTIVITY_FILE names, one JSON object a line (docs/remote.md, "The server's own
activity record"): `started` before the request is sent, `result` when the answer comes, `unresolved`
when the answer is lost. On stdin EOF the SDK cancels the handlers still running (python-sdk
#2678): the cancellation reaches the handler as anyio's cancellation exception, and the action
is recorded `unresolved` before run() returns and the interpreter exits. The example for
server teams; activity-recorded passes it.
"""

import json
import os
import uuid
from datetime import datetime, timezone

import anyio
import httpx2
from mcp.server.mcpserver import Context, MCPServer

app = MCPServer("mcpserver-records-activity")
RECORD = os.environ.get("CRASH_DRILL_ACTIVITY_FILE")


def record(key: str, phase: str, **fields: object) -> None:
    """Appends one line and returns once it is written: before the request is sent, not later."""
    if not RECORD:
        return
    line = json.dumps({"t": datetime.now(timezone.utc).isoformat(), "key": key, "phase": phase, **fields})
    with open(RECORD, "a", encoding="utf-8") as f:
        f.write(line + "\n")


@app.tool()
async def write(op: str, target: str, ctx: Context) -> str:
    """POST /actions on the drill remote; answers "effect <id>"."""
    meta = ctx.request_context.meta or {}
    key = meta.get("dev.crash-drill/correlation-id") or str(uuid.uuid4())
    record(key, "started", operation=op, target=target)
    try:
        async with httpx2.AsyncClient() as client:
            response = await client.post(
                os.environ["CRASH_DRILL_REMOTE_URL"] + "/actions",
                json={"op": op, "target": target},
                headers={
                    "Authorization": "Bearer " + os.environ["CRASH_DRILL_TOKEN"],
                    "Idempotency-Key": key,
                    "X-Correlation-Id": key,
                },
            )
    except anyio.get_cancelled_exc_class():
        # Cancelled at EOF (or by the client) with the request sent or not: its result is not known.
        record(key, "unresolved", operation=op, reason="cancelled")
        raise
    except httpx2.HTTPError as error:
        record(key, "unresolved", operation=op, reason=type(error).__name__)
        raise
    effect = response.json().get("id") if response.status_code < 300 else None
    record(key, "result", operation=op, status=response.status_code, **({"remoteId": effect} if effect else {}))
    return f"effect {effect}"


app.run()
