package dev.crashdrill.fakes;

/**
 * java-sdk writes-after-eof: a shutdown hook writes one JSON-RPC message (a log notification,
 * "server stopped") to System.out. It runs when the JVM exits after EOF (the SDK offers no hook
 * for the end of stdin, java-sdk #936, so a shutdown hook is where such code goes). After a close
 * the client still reads and the line arrives. After a crash nobody reads: the write fails with
 * EPIPE and System.out, a PrintStream, swallows it (it only sets checkError()); HotSpot ignores
 * SIGPIPE, so the JVM is not killed either. The JVM exits 0: silent.
 */
public final class WritesAfterEof {

	public static void main(String[] args) {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			System.out.println(
					"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"server stopped\"}}");
			System.out.flush();
			Fake.log("last write: %s", System.out.checkError() ? "failed (PrintStream.checkError)" : "ok");
		}, "last-write"));
		Fake.serve("writes-after-eof");
	}

}
