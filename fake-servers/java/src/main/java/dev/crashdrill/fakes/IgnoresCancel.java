package dev.crashdrill.fakes;

import java.util.LinkedHashMap;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * java-sdk ignores-cancel: {@code slow} sleeps {@code ms} milliseconds in its own thread and goes
 * on through an interrupt (it catches it and sleeps the rest). No child. With the classic server
 * nothing interrupts it anyway (no notifications/cancelled handler, nothing cancelled at EOF), so
 * at EOF the JVM waits for it, and after a cancel its answer goes out when the sleep ends. With
 * {@code until-cancelled: true} it ends as soon as the server has read a notifications/cancelled
 * (CancelWatch; one read before the call started counts too) and not before, {@code ms} its longest: its answer then follows the cancel by an
 * event, whatever the client's pace.
 */
public final class IgnoresCancel {

	private static Tool slow() {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("ms", Map.of("type", "integer"));
		properties.put("until-cancelled", Map.of("type", "boolean"));
		return Tool.builder("slow", Map.of("type", "object", "properties", properties))
			.description("Works for ms milliseconds, whatever happens; with until-cancelled, until the server reads a cancel.")
			.build();
	}

	public static void main(String[] args) {
		Fake.serve("ignores-cancel",
				Fake.handler(slow(), (exchange, request) -> {
					int ms = Fake.intArg(request, "ms", 30000);
					boolean untilCancelled = Fake.boolArg(request, "until-cancelled", false);
					Fake.log("slow: working for %d ms%s", ms, untilCancelled ? " or until the server reads a cancel" : "");
					long end = System.nanoTime() + ms * 1_000_000L;
					if (untilCancelled) {
						try {
							if (CancelWatch.awaitCancel(end)) {
								Fake.log("slow: the server read a cancel; answering all the same");
								return Fake.text("done");
							}
						}
						catch (InterruptedException e) {
							Fake.log("slow: interrupted, going on");
						}
					}
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
