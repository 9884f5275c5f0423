package dev.crashdrill.groundtruth;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measurement: the client role started in a session and process group of its own (setsid),
 * brought to its point, then SIGKILLed ("kill": Process.destroyForcibly) or left to close the
 * session the SDK's way ("close"). After a kill the server is re-parented to this process, a child
 * subreaper (groundtruth.sh sets PR_SET_CHILD_SUBREAPER before it runs the JVM; Java has no
 * prctl), so ProcessHandle.onExit waits for it with waitid and its wait status is read from
 * /proc. Survivors are the live members of the client's group after the server's exit or the
 * window. The zombies this leaves (onExit waits with WNOWAIT, and Java reaps only the processes
 * it started) are reaped by init once the measuring JVM exits.
 */
final class Measure {

	record Result(String server, String end, String exit, List<String> survivors) {
	}

	private static final Pattern SDK_EXIT = Pattern.compile("MCP server (completed successfully|process failed) with code (-?\\d+)");

	private Measure() {
	}

	static Result run(String self, String jar, String end, long windowMs) throws Exception {
		String server = Script.behaviourOf(jar);
		Process client = new ProcessBuilder("setsid", "java", "-cp", self, "dev.crashdrill.groundtruth.Main", "client", end, jar)
			.start();
		StringBuilder stderr = new StringBuilder();
		Thread drain = new Thread(() -> copy(client, stderr), "client-stderr");
		drain.start();
		BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
		long serverPid = 0;
		String line;
		String closed = null;
		while ((line = out.readLine()) != null) {
			if (line.startsWith("server ")) {
				serverPid = Long.parseLong(line.substring(7));
			}
			if (line.equals("ready")) {
				break;
			}
		}
		if (serverPid == 0 || line == null) {
			client.waitFor();
			drain.join();
			return new Result(server, end, "the client never reached the point: " + lastLine(stderr), List.of());
		}
		String exit;
		if (end.equals("kill")) {
			long lost = System.nanoTime();
			client.destroyForcibly();
			client.waitFor();
			exit = awaitExit(serverPid, lost, windowMs);
		}
		else {
			while ((line = out.readLine()) != null) {
				if (line.startsWith("closed ")) {
					closed = line.substring(7);
				}
			}
			client.waitFor();
			drain.join();
			exit = closed == null ? "the client died: " + lastLine(stderr) : describeClose(closed, stderr);
		}
		List<String> survivors = Procs.group(client.pid()).stream().map(Procs::commandLine).sorted().toList();
		endGroup(client.pid());
		return new Result(server, end, exit, survivors);
	}

	/** "Close returned after N ms", and the exit code the SDK logged for the server. */
	private static String describeClose(String closed, StringBuilder stderr) {
		String[] parts = closed.split(" ", 2);
		Matcher m;
		synchronized (stderr) {
			m = SDK_EXIT.matcher(stderr);
		}
		String code = m.find() ? "exit " + m.group(2) + " (the SDK: \"" + m.group(1) + "\")" : parts[1];
		return "closeGracefully returned after " + parts[0] + " ms: " + code;
	}

	private static String awaitExit(long pid, long lost, long windowMs) throws Exception {
		if (Procs.ppid(pid) != ProcessHandle.current().pid()) {
			if (ProcessHandle.of(pid).isEmpty()) {
				return "gone before it was re-parented here";
			}
			throw new IllegalStateException("the server was not re-parented here: run through groundtruth.sh (a child subreaper)");
		}
		ProcessHandle server = ProcessHandle.of(pid).orElse(null);
		if (server == null) {
			return "reaped elsewhere";
		}
		try {
			server.onExit().get(windowMs, TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException e) {
			return "still running " + windowMs + " ms after the loss";
		}
		long ms = (System.nanoTime() - lost) / 1_000_000;
		return Procs.howItEnded(pid) + " after " + ms + " ms";
	}

	/** SIGKILL to what is left of the measurement's own group, each process by its handle. */
	private static void endGroup(long pgid) {
		for (ProcessHandle p : Procs.group(pgid)) {
			p.destroyForcibly();
			p.onExit().join();
		}
	}

	private static void copy(Process client, StringBuilder to) {
		try (BufferedReader err = new BufferedReader(new InputStreamReader(client.getErrorStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = err.readLine()) != null) {
				synchronized (to) {
					to.append(line).append('\n');
				}
			}
		}
		catch (java.io.IOException e) {
			// the client is gone
		}
	}

	private static String lastLine(StringBuilder s) {
		synchronized (s) {
			String[] lines = s.toString().trim().split("\n");
			return lines[lines.length - 1];
		}
	}

}
