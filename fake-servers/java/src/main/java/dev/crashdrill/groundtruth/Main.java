package dev.crashdrill.groundtruth;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * groundtruth measures what a Java fake server does when the Java SDK's own client loses it: the
 * client (McpClient.sync over StdioClientTransport) is a process of its own that this program
 * starts, brings to the behaviour's point, then kills with SIGKILL ("kill") or lets close the
 * session the SDK's way ("close"). Nothing here is the harness: it is the reference the drills are
 * compared with (fake-servers/java/README.md has the table).
 *
 * <pre>
 * groundtruth.sh [--window ms] [--parallel n] &lt;bin folder&gt;   every behaviour × end, a Markdown table
 * java -cp java-sdk-fakes.jar dev.crashdrill.groundtruth.Main client &lt;kill|close&gt; &lt;launcher jar&gt;   the client role
 * </pre>
 */
public final class Main {

	private Main() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length == 3 && args[0].equals("client")) {
			ClientRole.run(args[1], args[2]);
			return;
		}
		long window = 5000;
		int parallel = 2;
		List<String> folders = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--window" -> window = Long.parseLong(args[++i]);
				case "--parallel" -> parallel = Integer.parseInt(args[++i]);
				default -> folders.add(args[i]);
			}
		}
		if (folders.isEmpty()) {
			System.err.println("usage: groundtruth.sh [--window ms] [--parallel n] <bin folder>...");
			System.exit(2);
		}
		String self = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
		List<String[]> jobs = new ArrayList<>();
		for (String folder : folders) {
			try (var files = Files.list(Path.of(folder))) {
				for (Path jar : files.sorted().toList()) {
					if (Script.BY_BEHAVIOUR.containsKey(Script.behaviourOf(jar.toString()))) {
						jobs.add(new String[] { jar.toAbsolutePath().toString(), "kill" });
						jobs.add(new String[] { jar.toAbsolutePath().toString(), "close" });
					}
				}
			}
		}
		ExecutorService pool = Executors.newFixedThreadPool(parallel, r -> {
			Thread t = new Thread(r, "measure");
			t.setDaemon(true);
			return t;
		});
		List<Future<Measure.Result>> results = new ArrayList<>();
		final long w = window;
		for (String[] job : jobs) {
			results.add(pool.submit(() -> Measure.run(self, job[0], job[1], w)));
		}
		System.out.println("| server | killed (SIGKILL): the server | survivors | closed (closeGracefully) | survivors |");
		System.out.println("| --- | --- | --- | --- | --- |");
		for (int i = 0; i + 1 < results.size(); i += 2) {
			Measure.Result kill = results.get(i).get();
			Measure.Result close = results.get(i + 1).get();
			System.out.printf("| java-sdk-v2.2.0/%s | %s | %s | %s | %s |%n", kill.server(), kill.exit(), names(kill.survivors()),
					close.exit(), names(close.survivors()));
		}
		// The pool's threads are not daemons: end the JVM here, also after a failed measurement.
		System.exit(0);
	}

	private static String names(List<String> survivors) {
		return survivors.isEmpty() ? "none" : String.join("; ", survivors);
	}

}
