/**
 * A helper child that does nothing but stay alive, like the language server or file watcher a
 * real MCP server might start. It keeps the environment it was given (CRASH_DRILL_RUN included)
 * and has no exit logic of its own: only its parent, or the harness, can end it.
 */
setInterval(() => {}, 60_000);
