/** What `orphans`, `inspect` and `contain` know of processes, from /proc or ps + lsof; unseen fields are null, never guessed. */
import type { ProcessTable, TableProcess } from '../containment/process-table.js';
import type { IoCounters } from './observe.js';

export type BackendName = 'proc' | 'ps-lsof';
export type { IoCounters };

/** A process-table row; startTime is /proc field 22 in ticks, or `ps -o lstart` seconds. */
export interface ProcessEntry extends TableProcess {
  /** Wall-clock start (ISO); whole seconds on the ps backend. */
  startedAt: string;
  elapsedMs: number;
  /** argv when the backend sees its boundaries (/proc does, ps does not). */
  argv: string[] | null;
}

export type DescriptorKind = 'pipe' | 'socket' | 'tty' | 'file' | 'null' | 'other';
export type Access = 'r' | 'w' | 'rw' | null;

export interface TcpEndpoint {
  local: string;
  remote: string;
  state: string;
}

/** One open file descriptor, as `lsof -nP` would list it. */
export interface Descriptor {
  fd: number;
  kind: DescriptorKind;
  access: Access;
  /** The kernel object (`pipe:[inode]`, `socket:[inode]`, a path), the same string in every holder. */
  object: string;
  /** Protocol of a socket: tcp, tcp6, udp, unix, or null when unknown. */
  protocol: string | null;
  tcp: TcpEndpoint | null;
  /** A unix socket's bound path, if any. */
  path: string | null;
  /** The object of the other end of a unix socket, when resolved (`socket:[inode]`). */
  peer: string | null;
}

/** Who holds an object: a process and the descriptor it holds it on. */
export interface DescriptorHolder {
  pid: number;
  fd: number;
  access: Access;
}

/** A backend reads the machine; a reader returns null for a gone or unreadable process (normal on a live machine). */
export interface Backend extends ProcessTable {
  readonly name: BackendName;
  /** The whole process table (cheap: one read per process, or one `ps`). */
  processes(): ProcessEntry[];
  process(pid: number): ProcessEntry | null;
  /** Only fds 0, 1 and 2 (cheap). */
  stdio(pid: number): Descriptor[] | null;
  /** Every descriptor of the process. */
  descriptors(pid: number): Descriptor[] | null;
  /** Every pipe and socket holder by object (the expensive scan); with `wanted`, other pipes may be left out. */
  holders(wanted?: ReadonlySet<string>): DescriptorHolders;
  /** Environment variable names (never values); null when unreadable. */
  environNames(pid: number): string[] | null;
  /** One environment variable's value (the drill marker), null when absent or unreadable. */
  environValue(pid: number, name: string): string | null;
  /** The value of `name` in each of these processes' environments that has it (one pass). */
  environValues(pids: readonly number[], name: string): Map<number, string>;
  /** The process's working folder; null when unreadable. A backend that cannot see it leaves this out. */
  cwd?(pid: number): string | null;
  /** I/O counters to compare between two looks; null when unreadable. */
  ioCounters?(pid: number): IoCounters | null;
  /** What this backend cannot see, said once per output. */
  readonly blindSpots: string[];
}

export interface DescriptorHolders {
  byObject: Map<string, DescriptorHolder[]>;
  /** Unix socket -> its peer, for the sockets whose peer could be resolved; null: none could. */
  peers: Map<string, string> | null;
  /** Bytes queued unread on a socket (Recv-Q), when the backend can see it. */
  unread: Map<string, number> | null;
  /** Why peers is null. */
  peersUnavailable: string | null;
}
