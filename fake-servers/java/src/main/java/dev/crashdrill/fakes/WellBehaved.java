package dev.crashdrill.fakes;

/**
 * java-sdk well-behaved: echo, and run-helper (runs {@code sleep 1} to its end). main returns
 * once the server is built; at stdin EOF the transport's read loop ends, closes the session and
 * shuts both of its executors down, and with no other non-daemon thread left the JVM exits 0.
 * A run-helper call in flight at EOF is waited for (the SDK cancels nothing), which a short helper
 * makes harmless. One second, as the rmcp fake's: the child-spawned point fires at a sample at
 * least 200 ms after the child's exec was seen, and with the suite and a survey beside it a
 * half-second child was first seen 271 ms late and gone 229 ms later, with no sample between.
 * Passes every check.
 */
public final class WellBehaved {

	public static void main(String[] args) {
		Fake.serve("well-behaved", Fake.handler(Fake.tool("run-helper", "Runs a short helper to its end."),
				(exchange, request) -> {
					try {
						Fake.runToEnd("sleep", "1");
					}
					catch (Exception e) {
						throw new IllegalStateException(e);
					}
					return Fake.text("helper done");
				}));
	}

}
