package dev.crashdrill.fakes;

/**
 * java-sdk ignores-cancel: {@code slow} sleeps {@code ms} milliseconds in its own thread and goes
 * on through an interrupt (it catches it and sleeps the rest). No child. With the classic server
 * nothing interrupts it anyway (no notifications/cancelled handler, nothing cancelled at EOF), so
 * at EOF the JVM waits for it, and after a cancel its answer goes out when the sleep ends.
 */
public final class IgnoresCancel {

	public static void main(String[] args) {
		Fake.serve("ignores-cancel",
				Fake.handler(Fake.tool("slow", "Works for ms milliseconds, whatever happens.", "ms"), (exchange, request) -> {
					int ms = Fake.intArg(request, "ms", 30000);
					Fake.log("slow: working for %d ms", ms);
					long end = System.nanoTime() + ms * 1_000_000L;
					for (long left = ms; left > 0; left = (end - System.nanoTime()) / 1_000_000L) {
						try {
							Thread.sleep(left);
						}
						catch (InterruptedException e) {
							Fake.log("slow: interrupted, going on");
						}
					}
					Fake.log("slow: done");
					return Fake.text("done");
				}));
	}

}
