package dev.crashdrill.fakes;

import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * What every fake server shares: a sync server on the SDK's stdio transport written as the SDK's
 * docs write one (java-sdk/docs/server.md: {@code McpServer.sync(new
 * StdioServerTransportProvider(McpJsonDefaults.getMapper()))}), the echo tool, and a log on stderr
 * (stdout is the wire). There is no run call to return from: main builds the server and returns,
 * and the transport's two non-daemon threads (StdioServerTransportProvider's
 * Executors.newSingleThreadExecutor, one for stdin, one for stdout) keep the JVM up until the
 * transport ends after stdin EOF. Each main class adds its one behaviour.
 */
public final class Fake {

	private Fake() {
	}

	public static void log(String format, Object... args) {
		System.err.println(LocalTime.now() + " " + String.format(format, args));
	}

	/** A boolean argument of a call, or the fallback when it is absent. */
	public static boolean boolArg(CallToolRequest request, String name, boolean fallback) {
		Object value = request.arguments() == null ? null : request.arguments().get(name);
		return value instanceof Boolean b ? b : fallback;
	}

	/** A tool whose arguments are the named integer properties (none for an empty list). */
	public static Tool tool(String name, String description, String... integerArgs) {
		Map<String, Object> properties = new java.util.LinkedHashMap<>();
		for (String arg : integerArgs) {
			properties.put(arg, Map.of("type", "integer"));
		}
		return Tool.builder(name, Map.of("type", "object", "properties", properties)).description(description).build();
	}

	public static SyncToolSpecification handler(Tool tool,
			java.util.function.BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> call) {
		return SyncToolSpecification.builder().tool(tool).callHandler(call).build();
	}

	public static CallToolResult text(String text) {
		return CallToolResult.builder().addTextContent(text).build();
	}

	public static int intArg(CallToolRequest request, String name, int fallback) {
		Object value = request.arguments() == null ? null : request.arguments().get(name);
		return value instanceof Number n ? n.intValue() : fallback;
	}

	/** The server named java-sdk-&lt;behaviour&gt; with the echo tool and the given ones, serving stdio. */
	public static McpSyncServer serve(String behaviour, SyncToolSpecification... tools) {
		SyncToolSpecification echo = handler(
				Tool.builder("echo",
						Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string"))))
					.description("Answers with the text it was given.")
					.build(),
				(exchange, request) -> text(String.valueOf(request.arguments().get("text"))));
		List<SyncToolSpecification> all = new java.util.ArrayList<>(List.of(echo));
		all.addAll(Arrays.asList(tools));
		// The transport reads System.in when it is built: the watch sits in front of it first.
		System.setIn(CancelWatch.in(System.in));
		McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(McpJsonDefaults.getMapper()))
			.serverInfo("java-sdk-" + behaviour, "1.0.0")
			.capabilities(ServerCapabilities.builder().tools(false).build())
			.tools(all)
			.build();
		log("serving on stdio");
		return server;
	}

	/** Runs a command to its end (its output off the wire); a call interrupted ends it first. */
	public static void runToEnd(String... command) throws Exception {
		Process child = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		try {
			int code = child.waitFor();
			if (code != 0) {
				throw new IllegalStateException(String.join(" ", command) + " exited " + code);
			}
		}
		catch (InterruptedException e) {
			child.destroy();
			throw e;
		}
	}

	public static String seconds(int ms) {
		return String.format("%.3f", ms / 1000.0);
	}

}
