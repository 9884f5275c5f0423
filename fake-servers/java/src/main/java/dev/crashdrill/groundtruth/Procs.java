package dev.crashdrill.groundtruth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** What the measuring process reads from /proc (proc(5)): a process's stat fields and its group. */
final class Procs {

	private Procs() {
	}

	/** The fields of /proc/&lt;pid&gt;/stat after "(comm)": [0] is field 3 (state), so field n is [n - 3]. */
	static String[] stat(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
			return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
		}
		catch (IOException e) {
			return null;
		}
	}

	static long ppid(long pid) {
		String[] f = stat(pid);
		return f == null ? -1 : Long.parseLong(f[1]);
	}

	/**
	 * A zombie's wait status (field 52, exit_code, "in the form reported by waitpid(2)", since Linux
	 * 3.5): the exit code, or the signal that ended it. A zombie child stays until it is reaped, and
	 * ProcessHandle.onExit waits with WNOWAIT (waitid), so it is still there to be read.
	 */
	static String howItEnded(long pid) {
		String[] f = stat(pid);
		if (f == null || f.length < 50) {
			return "gone before its status could be read";
		}
		int status = Integer.parseInt(f[49]);
		int signal = status & 0x7f;
		return signal == 0 ? "exit " + ((status >> 8) & 0xff) : signalName(signal);
	}

	private static String signalName(int signal) {
		return switch (signal) {
			case 9 -> "SIGKILL";
			case 13 -> "SIGPIPE";
			case 15 -> "SIGTERM";
			default -> "signal " + signal;
		};
	}

	/** The live (not zombie) processes of a process group. */
	static List<ProcessHandle> group(long pgid) {
		List<ProcessHandle> members = new ArrayList<>();
		try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
			entries.map(p -> p.getFileName().toString()).filter(n -> n.chars().allMatch(Character::isDigit)).forEach(n -> {
				String[] f = stat(Long.parseLong(n));
				if (f != null && !f[0].equals("Z") && Long.parseLong(f[2]) == pgid) {
					ProcessHandle.of(Long.parseLong(n)).ifPresent(members::add);
				}
			});
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
		return members;
	}

	static String commandLine(ProcessHandle p) {
		try {
			// Each word that is a path by its file name: the table does not depend on the clone's place.
			String line = Files.readString(Path.of("/proc/" + p.pid() + "/cmdline")).replace('\0', ' ').trim();
			return java.util.Arrays.stream(line.split(" "))
				.map(w -> w.contains("/") ? Path.of(w).getFileName().toString() : w)
				.collect(java.util.stream.Collectors.joining(" "));
		}
		catch (IOException e) {
			return "pid " + p.pid();
		}
	}

}
