package dev.crashdrill.fakes;

/**
 * java-sdk slow-tool: {@code slow} runs {@code sleep} for {@code ms} milliseconds as a child it
 * ends if its thread is interrupted (the Java form of a child bound to the call's lifetime). The
 * SDK never interrupts it: at stdin EOF the read loop calls McpServerSession.close(), which
 * cancels nothing, and the inbound flux (StdioMcpSessionTransport.handleIncomingMessages,
 * flatMap over session.handle) completes only when the call does, so the stdin executor's
 * non-daemon thread keeps the JVM up for the whole {@code ms}. The answer is then dropped (the
 * writer skips every message once isClosing is set). The classic server has no handler for
 * notifications/cancelled either.
 */
public final class SlowTool {

	public static void main(String[] args) {
		Fake.serve("slow-tool", Fake.handler(Fake.tool("slow", "Works for ms milliseconds unless interrupted.", "ms"),
				(exchange, request) -> {
					int ms = Fake.intArg(request, "ms", 30000);
					Fake.log("slow: working for %d ms", ms);
					try {
						Fake.runToEnd("sleep", Fake.seconds(ms));
					}
					catch (Exception e) {
						Fake.log("slow: %s", e);
						throw new IllegalStateException(e);
					}
					Fake.log("slow: done");
					return Fake.text("done");
				}));
	}

}
