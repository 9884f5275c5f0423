/** A client profile: per version range, what the client does to a stdio server, each step cited. */
import type { ProfileName } from './names.js';

export type SignalName = 'SIGINT' | 'SIGTERM' | 'SIGKILL';

/**
 * Whom a signal reaches: the `child`; its `group` (killpg); the `tree` by parent-pid chain at that
 * moment (VS Code's terminateProcess.sh, Zed's /proc walk), so a re-parented process is missed;
 * `descendants`, the tree less the child (OpenCode's `pgrep -P` walk).
 */
export type Reach = 'child' | 'group' | 'tree' | 'descendants';

/** What a conditional step asks about: the direct child alive, or any member of its group. */
export type Liveness = 'child' | 'group';

export type StopStep =
  /** The client ends its write side of the server's stdin: the server reads EOF. */
  | { kind: 'close-stdin'; onlyIfAlive: Liveness | null }
  /** Waits up to `ms`, ending early once `endsWhenGone` is gone; `onlyIfSent`: only if that signal step was sent. */
  | { kind: 'wait-ms'; ms: number; endsWhenGone: Liveness | null; onlyIfSent?: number }
  /**
   * Sends `name` to `to`, optionally only while alive or only if an earlier signal step was sent
   * (an escalation, as the Python SDK's terminate_posix_process_tree).
   */
  | { kind: 'signal'; name: SignalName; to: Reach; onlyIfAlive: Liveness | null; onlyIfSent?: number }
  /** The client drops the server but keeps its pipe ends: no EOF, no signal (claude-code #88514). */
  | { kind: 'abandon' };

/** A rule of an env filter: the first matching rule decides; unmatched names are kept (upper-cased). */
export interface EnvRule {
  keep: boolean;
  names?: readonly string[];
  prefixes?: readonly string[];
  containing?: readonly string[];
  /** Value regexes (their source; case-insensitive). */
  values?: readonly string[];
  /** Every name, but only while the filter is strict (`strictWhen`). */
  whenStrict?: true;
}

export type SpawnEnv =
  /** Only these names from the client's environment, plus what the server's configuration sets. */
  | { kind: 'allowlist'; names: readonly string[] }
  /** The client's whole environment less its filter's drops; strict while one of `strictWhen` holds. */
  | { kind: 'whole'; rules: readonly EnvRule[]; strictWhen?: readonly { name: string; value?: string }[] };

export interface SpawnFacts {
  /** `same`: the client's own process group; `own-group`: setpgid(0, 0); `own-session`: setsid. */
  group: 'same' | 'own-group' | 'own-session';
  env: SpawnEnv;
  /** Linux PR_SET_PDEATHSIG set in the child before exec, or null. */
  parentDeathSignal: SignalName | null;
  /**
   * The server's stderr. A piped stderr loses its reader when the client dies: the next write
   * gets EPIPE, which kills a Node server without an 'error' handler before it ends its children.
   */
  stderr: 'inherit' | 'pipe-read' | 'pipe-unread';
  /**
   * A socketpair (Node's and Bun's child_process, via libuv) or real pipes (Python, tokio, Rust
   * std); the server's reader then blocks in unix_stream_read_generic or pipe_read.
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

/** Where a step was read (at least one citation), or `unsourced` with what it rests on instead: a report of a drill that uses an unsourced step says so. */
export type StepSource = { cited: readonly Citation[] } | { unsourced: string };

/**
 * The versions one behaviour holds for; `label` is what `--client-profile <name>@<label>` names.
 * `first`/`last` compare on the parts they give (`0.56` holds 0.56.3); a version past the newest
 * `last` is unknown. Both null: known by commit, selected only by label.
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
   * Whether the runtime closes the server's stdin once the direct child exits (Node's ChildProcess
   * exit handler, nodejs/node lib/internal/child_process.js; Bun's likewise): EOF for a real server
   * behind a launcher that died.
   */
  closesStdinWhenChildExits: boolean;
  crash: CrashFacts;
  /** How the client drops a server with neither EOF nor signal (`abandon`); null if none was found. */
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
