package dev.crashdrill.fakes;

/**
 * java-sdk thread-keeps-alive: a non-daemon thread that never ends (a heartbeat every 100 ms),
 * started beside the server. The JVM exits only when its last non-daemon thread ends (Java
 * Language Specification 12.8), so after EOF, with the SDK's threads gone, this one keeps it up.
 * Only a signal ends it: SIGTERM runs the shutdown hooks and exits with status 143, SIGKILL kills
 * it. Fails exit-on-eof.
 */
public final class ThreadKeepsAlive {

	public static void main(String[] args) {
		Thread heartbeat = new Thread(() -> {
			while (true) {
				try {
					Thread.sleep(100);
				}
				catch (InterruptedException e) {
					return;
				}
			}
		}, "heartbeat");
		heartbeat.start();
		Fake.serve("thread-keeps-alive");
	}

}
