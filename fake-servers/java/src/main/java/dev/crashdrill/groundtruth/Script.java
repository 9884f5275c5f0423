package dev.crashdrill.groundtruth;

import java.util.Map;

/**
 * A behaviour's script for the measuring client: the tool to call, its arguments, and how the
 * client knows the server is at the point: the call answered (idle after a call), the handler's
 * start line on the server's stderr (the call in flight and dispatched), or the server's sampling
 * request reaching the client. The fakes' own files say what each does
 * (fake-servers/java/src/main/java/dev/crashdrill/fakes/).
 */
record Script(String tool, Map<String, Object> args, boolean answered, String started, boolean sampling) {

	static final Map<String, Script> BY_BEHAVIOUR = Map.of( //
			"well-behaved", answered("echo", Map.of("text", "hi")), //
			"thread-keeps-alive", answered("echo", Map.of("text", "hi")), //
			"writes-after-eof", answered("echo", Map.of("text", "hi")), //
			"leaks-child", answered("spawn-helper", Map.of()), //
			"slow-tool", new Script("slow", Map.of("ms", 30000), false, "slow: working", false), //
			"ignores-cancel", new Script("slow", Map.of("ms", 30000), false, "slow: working", false), //
			"awaits-sampling", new Script("ask", Map.of(), false, null, true));

	private static Script answered(String tool, Map<String, Object> args) {
		return new Script(tool, args, true, null, false);
	}

	/** The behaviour of a launcher jar, bin/&lt;behaviour&gt;.jar. */
	static String behaviourOf(String jar) {
		String name = java.nio.file.Path.of(jar).getFileName().toString();
		return name.endsWith(".jar") ? name.substring(0, name.length() - 4) : name;
	}

}
