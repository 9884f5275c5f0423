package dev.crashdrill.fakes;

/**
 * java-sdk well-behaved: echo, and run-helper (runs {@code sleep 0.5} to its end). main returns
 * once the server is built; at stdin EOF the transport's read loop ends, closes the session and
 * shuts both of its executors down, and with no other non-daemon thread left the JVM exits 0.
 * A run-helper call in flight at EOF is waited for (the SDK cancels nothing), which a short helper
 * makes harmless. Half a second, not the 50 ms of the other SDKs' fakes: the harness samples for
 * the child-spawned point every 2 ms, and under the suite's load a 50 ms child was missed once.
 * Passes every check.
 */
public final class WellBehaved {

	public static void main(String[] args) {
		Fake.serve("well-behaved", Fake.handler(Fake.tool("run-helper", "Runs a short helper to its end."),
				(exchange, request) -> {
					try {
						Fake.runToEnd("sleep", "0.5");
					}
					catch (Exception e) {
						throw new IllegalStateException(e);
					}
					return Fake.text("helper done");
				}));
	}

}
