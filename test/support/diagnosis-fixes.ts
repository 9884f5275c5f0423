/**
 * The fixes a diagnosis gives (harness/results/diagnosis.ts), word for word, for the tests that
 * assert them on real drills: test/results/diagnosis.e2e.test.ts (the Node fakes, the bundled
 * run) and test/python-sdk/matrix.e2e.test.ts (the Python fakes, from the matrix's own run).
 */
export const SDK1_FIX =
  "listen for the end of stdin yourself, since the SDK 1.x transport does not (typescript-sdk #2002): process.stdin.on('end', () => server.close().then(() => process.exit(0))), and clear the intervals and timers it started; or move to SDK 2, whose transport closes on stdin end";
export const THREAD_FIX =
  'the interpreter waits for a non-daemon thread: make it a daemon (threading.Thread(..., daemon=True)), or stop it and join it with a deadline when run() returns';
export const NODE_CHILD_FIX =
  "the server exits without ending its child: keep the ChildProcess and kill it on stdin 'end' and on 'exit' (or spawn it in a group and signal the group)";
export const POPEN_FIX =
  'the subprocess.Popen child is never ended: keep the Popen and terminate() it (then wait with a timeout) when run() returns or in the lifespan cleanup';
export const DAEMON_FIX =
  'a tool starts a daemon (setsid, a session of its own) that nothing ends: do not detach it; if it must outlive a call, keep its pid and stop it when stdin ends';
export const NODE_STDOUT_FIX = 'log to stderr (console.error, or a logger bound to process.stderr), never console.log: stdout is the protocol';
