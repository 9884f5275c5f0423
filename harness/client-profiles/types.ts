/**
 * The shape of a client profile: for each range of a client's versions, what it does to a stdio
 * server (spawn, env, stop, crash, abandon), each step with the source it was read from. Facts
 * only; one piece of code executes any entry (harness/shared/stop-steps.ts).
 */
import type { ProfileName } from './names.js';

export type SignalName = 'SIGINT' | 'SIGTERM' | 'SIGKILL';

/**
 * Whom a signal reaches. `child`: the process the client spawned. `group`: killpg of the process
 * group the client put it in (its own group or session; a `same`-group client never does this).
 * `tree`: the child and every process whose parent-pid chain leads to it at that moment (VS
 * Code's terminateProcess.sh, Zed's /proc walk), so a process already re-parented is missed.
 * `descendants`: the tree without the child itself, parents before children (OpenCode's
 * `pgrep -P` walk, which leaves the child to the SDK's close that follows).
 */
export type Reach = 'child' | 'group' | 'tree' | 'descendants';

/** What a conditional step asks about: the direct child alive, or any member of its group. */
export type Liveness = 'child' | 'group';

export type StopStep =
  /** The client ends its write side of the server's stdin: the server reads EOF. */
  | { kind: 'close-stdin'; onlyIfAlive: Liveness | null }
  /**
   * Waits up to `ms`, ending early once `endsWhenGone` is gone (null: the whole time); with
   * `onlyIfSent`, only when the signal step at that index was sent.
   */
  | { kind: 'wait-ms'; ms: number; endsWhenGone: Liveness | null; onlyIfSent?: number }
  /**
   * Sends `name` to `to`; with `onlyIfAlive`, only while that is still alive; with `onlyIfSent`,
   * only when the signal step at that index was sent (an escalation that a client starts only
   * once, as the Python SDK's terminate_posix_process_tree, which runs only if the child outlived
   * the first wait).
   */
  | { kind: 'signal'; name: SignalName; to: Reach; onlyIfAlive: Liveness | null; onlyIfSent?: number }
  /**
   * The client drops the server and keeps its ends of the pipes: no EOF, no signal, the server
   * lives on until the client process exits (Claude Desktop's replaced server, claude-code #88514).
   */
  | { kind: 'abandon' };

/**
 * One rule of a client's environment filter: the first rule that matches a variable decides
 * (`keep`); a variable no rule matches is kept. Names are matched upper-cased.
 */
export interface EnvRule {
  keep: boolean;
  /** These exact names. */
  names?: readonly string[];
  /** Names starting with one of these. */
  prefixes?: readonly string[];
  /** Names containing one of these. */
  containing?: readonly string[];
  /** Values matching one of these regular expressions (their source; tested case-insensitively). */
  values?: readonly string[];
  /** Every name, but only while the filter is strict (`strictWhen`). */
  whenStrict?: true;
}

export type SpawnEnv =
  /** Only these names from the client's environment, plus what the server's configuration sets. */
  | { kind: 'allowlist'; names: readonly string[] }
  /**
   * The client's whole environment, less what its filter drops, plus the configuration's. The
   * filter is strict while one of `strictWhen` holds (a variable set, or set to `value`).
   */
  | { kind: 'whole'; rules: readonly EnvRule[]; strictWhen?: readonly { name: string; value?: string }[] };

export interface SpawnFacts {
  /** `same`: the client's own process group; `own-group`: setpgid(0, 0); `own-session`: setsid. */
  group: 'same' | 'own-group' | 'own-session';
  env: SpawnEnv;
  /** Linux PR_SET_PDEATHSIG set in the child before exec, or null. */
  parentDeathSignal: SignalName | null;
  /**
   * The server's stderr: the client's own (`inherit`), a pipe the client reads into its logs
   * (`pipe-read`), or a pipe nobody reads unless debugging (`pipe-unread`, full at 64 KiB).
   * Once the client dies a piped stderr has no reader: the server's next write fails (EPIPE),
   * which kills a Node server without an 'error' handler before it ends its children.
   */
  stderr: 'inherit' | 'pipe-read' | 'pipe-unread';
  /**
   * What the server's stdin and stdout are: a Unix socketpair (Node's and Bun's child_process,
   * through libuv) or real pipes (Python's subprocess, tokio, Rust's std). A server's reader
   * then blocks in unix_stream_read_generic or in pipe_read, and `S_ISFIFO` tells them apart.
   */
  stdio: 'socketpair' | 'pipe';
}

/** What reaches the server when the client process dies (its pipes close: EOF, always). */
export type CrashFacts = 'eof' | { signal: SignalName; to: 'child' };

export interface Citation {
  /** owner/name, or a package registry name for a published version. */
  repo: string;
  /** A file in that repository, or an issue / pull request ('#16744'). */
  where: string;
  /** The function, type or constant read; for a tracker entry what it reports. */
  what: string;
  /** The commit, tag or published version read; for a tracker entry, its state when read. */
  version: string;
}

/** The parts of a profile a drill uses, each with its own source. */
export const STEP_NAMES = ['spawn', 'env', 'stop', 'crash', 'abandon'] as const;
export type StepName = (typeof STEP_NAMES)[number];

/**
 * Where a step was read (at least one citation), or `unsourced` with what it rests on instead:
 * a report of a drill that uses an unsourced step says so.
 */
export type StepSource = { cited: readonly Citation[] } | { unsourced: string };

/**
 * The versions one behaviour holds for. `label` is what `--client-profile <name>@<label>` names
 * (`>=0.52`, `0.27-0.51`). `first` and `last` bound it by version (`0.52`, `0.56`: compared on
 * the parts they give, so `0.56` holds 0.56.3); `last` of the newest range is the newest release
 * read, and a version past it is unknown. Both null: the behaviour is known by what was read (a
 * commit), not by version, and only its label selects it.
 */
export interface VersionRange {
  label: string;
  first: string | null;
  last: string | null;
  /** The commit or release that brought this behaviour in, or the one read when none is known. */
  since: string;
}

/** What one range of a client's versions does to a stdio server. */
export interface ClientBehaviour {
  name: ProfileName;
  versions: VersionRange;
  /** The client and the versions this entry describes, in words. */
  client: string;
  spawn: SpawnFacts;
  /** The steps to stop one server while the client lives on (disable, reload, reconnect). */
  stop: readonly StopStep[];
  /**
   * Whether the client's runtime closes its end of the server's stdin as soon as the direct
   * child exits, whatever the stop steps say: Node's ChildProcess destroys `stdin` in its exit
   * handler (nodejs/node lib/internal/child_process.js), and Bun's node:child_process does the
   * same. This is what hands EOF to a real server left behind a launcher that died.
   */
  closesStdinWhenChildExits: boolean;
  crash: CrashFacts;
  /**
   * When the client drops a server with neither EOF nor a signal (the `abandon` mode), in words;
   * null when no such path was found in what was read.
   */
  abandons: string | null;
  /** True when nothing of the client's code could be read: the entry comes from its tracker. */
  observed: boolean;
  /** Each step's source (the env step is the spawn's `env`, the spawn step the rest of it). */
  sources: Readonly<Record<StepName, StepSource>>;
}

/** A client: its behaviours, newest range first. */
export interface ClientProfile {
  name: ProfileName;
  client: string;
  behaviours: readonly ClientBehaviour[];
}
