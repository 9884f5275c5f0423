package dev.crashdrill.fakes;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * What the server has read of notifications/cancelled: stdin passes through this stream on its way
 * to the SDK's transport, byte for byte (its reads, its EOF and its errors are the transport's own),
 * and each line that is a notifications/cancelled is counted as it is handed over (before the read
 * that carries it returns to the transport). A
 * handler that must answer only after its server read the cancel (IgnoresCancel's
 * {@code until-cancelled}) waits on that count: an event, never a length of time, so its answer
 * cannot cross the cancel however slowly the client wrote it.
 */
final class CancelWatch extends FilterInputStream {

	private static final Object LOCK = new Object();

	private static int cancels;

	private final ByteArrayOutputStream line = new ByteArrayOutputStream();

	private CancelWatch(InputStream in) {
		super(in);
	}

	static InputStream in(InputStream in) {
		return new CancelWatch(in);
	}

	/** Waits until the server has read a cancel, or until {@code deadlineNanos} (System.nanoTime); true if it has. */
	static boolean awaitCancel(long deadlineNanos) throws InterruptedException {
		synchronized (LOCK) {
			while (cancels == 0) {
				long left = (deadlineNanos - System.nanoTime()) / 1_000_000L;
				if (left <= 0) {
					return false;
				}
				LOCK.wait(left);
			}
			return true;
		}
	}

	@Override
	public int read() throws IOException {
		int b = super.read();
		if (b >= 0) {
			seen(new byte[] { (byte) b }, 0, 1);
		}
		return b;
	}

	@Override
	public int read(byte[] buffer, int offset, int length) throws IOException {
		int n = super.read(buffer, offset, length);
		if (n > 0) {
			seen(buffer, offset, n);
		}
		return n;
	}

	private void seen(byte[] buffer, int offset, int length) {
		for (int i = offset; i < offset + length; i++) {
			if (buffer[i] != '\n') {
				line.write(buffer[i]);
				continue;
			}
			String text = line.toString(StandardCharsets.UTF_8);
			line.reset();
			if (text.contains("\"notifications/cancelled\"")) {
				synchronized (LOCK) {
					cancels++;
					LOCK.notifyAll();
				}
			}
		}
	}

}
