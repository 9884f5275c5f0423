package dev.crashdrill.groundtruth;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;

/**
 * The client role: a session on one fake with the Java SDK's own client (McpClient.sync over
 * StdioClientTransport, the server started as {@code java -jar <jar>}), brought to the behaviour's
 * point. It tells the measuring process on stdout: "server &lt;pid&gt;", "ready", and for "close"
 * "closed &lt;ms&gt; &lt;how&gt;". For "kill" it then waits to be killed.
 *
 * StdioClientTransport always pipes the server's stderr into the client (ProcessBuilder's default;
 * its error reader is part of the transport: a server stderr that ends early sets isClosing and
 * stops the transport's reading too), so there is no variant with the stderr held outside: a JVM
 * server is not hurt by it anyway (HotSpot ignores SIGPIPE, System.err swallows EPIPE).
 */
final class ClientRole {

	private ClientRole() {
	}

	static void run(String end, String jar) throws Exception {
		Script script = Script.BY_BEHAVIOUR.get(Script.behaviourOf(jar));
		if (script == null) {
			throw new IllegalArgumentException("no script for " + jar);
		}
		CountDownLatch atPoint = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		StdioClientTransport transport = new StdioClientTransport(
				ServerParameters.builder("java").args("-jar", jar).build(), McpJsonDefaults.getMapper());
		transport.setStdErrorHandler(line -> {
			System.err.println("server: " + line);
			if (script.started() != null && line.contains(script.started())) {
				atPoint.countDown();
			}
		});
		// Sampling is declared so that the server may send it (the SDK refuses to a client without
		// it); the handler holds the request open until the close, then declines.
		McpSyncClient client = McpClient.sync(transport)
			.clientInfo(new Implementation("groundtruth", "1.0.0"))
			.requestTimeout(Duration.ofMinutes(5))
			.capabilities(ClientCapabilities.builder().sampling().build())
			.sampling(request -> {
				atPoint.countDown();
				try {
					release.await();
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
				throw new IllegalStateException("the host declined: shutting down");
			})
			.build();
		client.initialize();
		// The transport keeps its Process to itself; the server is this JVM's only child.
		ProcessHandle server = ProcessHandle.current().children().findFirst().orElseThrow();
		say("server " + server.pid());
		CallToolRequest call = new CallToolRequest(script.tool(), script.args());
		if (script.answered()) {
			client.callTool(call);
		}
		else {
			Thread caller = new Thread(() -> {
				try {
					client.callTool(call);
				}
				catch (RuntimeException e) {
					System.err.println("call ended: " + e.getMessage());
				}
			}, "call");
			caller.setDaemon(true);
			caller.start();
			if (!atPoint.await(60, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the server never reached the point of " + jar);
			}
		}
		say("ready");
		if (end.equals("kill")) {
			new CountDownLatch(1).await(); // the measuring process kills this client
		}
		// The host's close with a call in flight: the sampling handler gives up first, as Go's
		// ground truth does. McpSyncClient.closeGracefully blocks up to 10 s on
		// StdioClientTransport.closeGracefully: no stdin close, 100 ms, Process.destroy (SIGTERM),
		// then it waits for the exit; no SIGKILL.
		release.countDown();
		long start = System.nanoTime();
		boolean closed = client.closeGracefully();
		long ms = (System.nanoTime() - start) / 1_000_000;
		String how = server.isAlive() ? "still running" : "gone (the SDK logs its exit code above)";
		say("closed " + ms + " " + how + " (closeGracefully: " + closed + ")");
		System.exit(0);
	}

	private static void say(String line) {
		System.out.println(line);
		System.out.flush();
	}

}
