package dev.crashdrill.fakes;

/**
 * java-sdk leaks-child: {@code spawn-helper} starts {@code sleep 300} with ProcessBuilder and never
 * waits for it or ends it. The JVM exits on EOF (a child process is no thread: it keeps nothing
 * up); the child, re-parented, lives on. Fails no-survivors.
 */
public final class LeaksChild {

	public static void main(String[] args) {
		Fake.serve("leaks-child",
				Fake.handler(Fake.tool("spawn-helper", "Starts a helper and leaves it running."), (exchange, request) -> {
					try {
						Process helper = new ProcessBuilder("sleep", "300").redirectOutput(ProcessBuilder.Redirect.DISCARD)
							.redirectError(ProcessBuilder.Redirect.INHERIT)
							.start();
						return Fake.text("helper pid " + helper.pid());
					}
					catch (java.io.IOException e) {
						throw new IllegalStateException(e);
					}
				}));
	}

}
