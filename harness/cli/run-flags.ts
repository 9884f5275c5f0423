/**
 * The flags of a run, one typed table keyed by the run's options (after vitest's
 * node/cli/cli-config.ts, `CLIOptions<CliOptions>`): commander's options are made from it, and
 * what commander parses comes back under the options' own names, so nothing is copied field by field.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseProfile, PROFILE_NAMES, type ProfileRef } from '../client-profiles/profiles.js';
import { KILL_MODES, KILL_POINTS, NETWORK_CHOICES, PROTOCOL_CHOICES } from '../config/index.js';
import { CLIENT_KINDS } from '../drill/client/client-kinds.js';
import { parseShard, ShardError } from '../plan/shard.js';
import type { RunOptions } from '../run/run-plan.js';

/** What the command line gives a run: the run's own options, and what only a command line has. */
export interface RunFlags
  extends Pick<
    RunOptions,
    | 'points'
    | 'modes'
    | 'protocol'
    | 'network'
    | 'clientProfiles'
    | 'only'
    | 'concurrency'
    | 'client'
    | 'out'
    | 'shard'
    | 'repeat'
    | 'passWithNoDrills'
    | 'baseline'
    | 'updateBaseline'
  > {
  /** Named reporters; the config's reporter objects stay beside them (harness/cli/run-command.ts). */
  reporters?: string[];
  /** A config file; default: crash-drill.config.{ts,mts,js,mjs} in the working folder. */
  config?: string;
  /** Command lines of servers to drill instead of the scenarios' own. */
  subject?: string[];
  /** The target call of the scenario of a `--subject` alone. */
  call?: string;
  /** That call's arguments, a JSON object. */
  args?: string;
}

interface FlagDefinition<T> {
  flags: string;
  description: string;
  parse?: (value: string, previous: T | undefined) => T;
}

type FlagTable<O> = { [K in keyof O]-?: FlagDefinition<NonNullable<O[K]>> };

export function listOf<T extends string>(allowed: readonly T[], what: string) {
  return (value: string, previous: T[] = []): T[] => {
    const items = commaList(value);
    for (const item of items) {
      if (!allowed.includes(item as T)) throw new InvalidArgumentError(`unknown ${what} "${item}"; expected one of ${allowed.join(', ')}`);
    }
    return [...previous, ...(items as T[])];
  };
}

export function oneOf<T extends string>(allowed: readonly T[], what: string) {
  return (value: string): T => {
    if (!allowed.includes(value as T)) throw new InvalidArgumentError(`unknown ${what} "${value}"; expected one of ${allowed.join(', ')}`);
    return value as T;
  };
}

export function commaList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

/** `--client-profile`: names, each optionally @<version> or @<range>, to canonical refs (once each). */
function profileList(value: string, previous: ProfileRef[] = []): ProfileRef[] {
  const refs = commaList(value).map((item) => {
    const parsed = parseProfile(item);
    if (!parsed.ok) throw new InvalidArgumentError(parsed.message);
    return parsed.ref;
  });
  return [...new Set([...previous, ...refs])];
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return n;
}

export function shardArg(value: string) {
  try {
    return parseShard(value);
  } catch (error) {
    // Commander turns InvalidArgumentError into a usage error; main.ts exits 3 on those.
    if (error instanceof ShardError) throw new InvalidArgumentError(error.message.replace(/^--shard: /, ''));
    throw error;
  }
}

export const REPORTER_HELP = 'reporters: console, json, junit, markdown, html, or a module path; repeatable or comma-separated (json is always on)';

export const RUN_FLAGS: FlagTable<RunFlags> = {
  out: { flags: '--out <dir>', description: 'report folder (default: crash-drill-report)' },
  baseline: {
    flags: '--baseline <file>',
    description: 'known failures (written by `crash-drill baseline`): listed ones do not fail the run; new ones and entries that now pass do',
  },
  updateBaseline: {
    flags: '--update-baseline',
    description: 'rewrite the --baseline file from this run (new failures added, entries that now pass removed, reasons kept)',
  },
  points: {
    flags: '--point <points>',
    description: `kill points to drill (${KILL_POINTS.join(', ')}); repeatable or comma-separated`,
    parse: listOf(KILL_POINTS, 'kill point'),
  },
  modes: {
    flags: '--mode <modes>',
    description: `kill modes to drill (${KILL_MODES.join(', ')}); repeatable or comma-separated`,
    parse: listOf(KILL_MODES, 'kill mode'),
  },
  protocol: {
    flags: '--protocol <era>',
    description: `protocol era for every drill: ${PROTOCOL_CHOICES.join(', ')} (auto probes with server/discover and falls back to initialize)`,
    parse: oneOf(PROTOCOL_CHOICES, 'protocol'),
  },
  network: {
    flags: '--network <network>',
    description: `the servers' network: ${NETWORK_CHOICES.join(', ')} (loopback: a network namespace where only loopback exists and the drill remote is reachable; the run refuses where none can be made; default: each scenario's, else host)`,
    parse: oneOf(NETWORK_CHOICES, 'network'),
  },
  clientProfiles: {
    flags: '--client-profile <names>',
    description: `the clients whose spawn, stop and crash each drill reproduces, once per profile: ${PROFILE_NAMES.join(', ')}, each the newest behaviour read or <name>@<version or range> (crash-drill profiles lists them); repeatable or comma-separated (default: the scenario's, else ts-sdk)`,
    parse: profileList,
  },
  only: { flags: '--only <ids>', description: 'only the scenarios with these ids; repeatable or comma-separated', parse: commaList },
  concurrency: {
    flags: '--concurrency <n>',
    description: 'drills in flight at most (default: phase-aware, a CPU slot per core while drills start or are contained)',
    parse: positiveInt,
  },
  client: {
    flags: '--client <kind>',
    description: `the drill client: ${CLIENT_KINDS.join(', ')} (inprocess: the SDK client runs in the harness over the server's pipes)`,
    parse: oneOf(CLIENT_KINDS, 'client'),
  },
  config: { flags: '--config <path>', description: 'config file (default: crash-drill.config.{ts,mts,js,mjs} in the working folder)' },
  reporters: {
    flags: '--reporter <names>',
    description: `${REPORTER_HELP}; default: markdown and html, unless the config names its reporters`,
    parse: commaList,
  },
  subject: {
    flags: '--subject <command>',
    description: "drill this server instead of the scenarios' own (a command line); repeat it to compare servers side by side",
    parse: (v, p = []) => [...p, v],
  },
  call: {
    flags: '--call <tool>',
    description: 'with --subject alone (no scenarios): also drill the points a call of this tool reaches (pre-dispatch, in-flight, after-response)',
  },
  args: { flags: '--args <json>', description: "the --call's arguments, a JSON object (default {})" },
  passWithNoDrills: { flags: '--pass-with-no-drills', description: 'a run whose plan holds no drill passes (exit 0) instead of failing (exit 1)' },
  shard: {
    flags: '--shard <i/n>',
    description: 'run only shard i of n (drills dealt round-robin in plan order); merge the shards with `crash-drill merge`',
    parse: shardArg,
  },
  repeat: {
    flags: '--repeat <n>',
    description: 'run every drill n times; a drill whose verdicts differ is reported as flaky and counts as failed',
    parse: positiveInt,
  },
};

/** The flags `run` and `baseline` share, in the order --help lists them (`run` adds the report's own three first). */
export const SHARED_RUN_FLAGS = [
  'points',
  'modes',
  'protocol',
  'network',
  'clientProfiles',
  'only',
  'concurrency',
  'client',
  'config',
  'reporters',
  'subject',
  'call',
  'args',
  'passWithNoDrills',
  'shard',
  'repeat',
] as const satisfies ReadonlyArray<keyof RunFlags>;

/** Commander's name of each flag (`--point` is `point`) to the options' name (`points`). */
const KEY_OF = new Map((Object.keys(RUN_FLAGS) as Array<keyof RunFlags>).map((key) => [new Option(RUN_FLAGS[key].flags).attributeName(), key] as const));

/** Adds these flags of the table to a command, in this order. */
export function addRunFlags(command: Command, keys: ReadonlyArray<keyof RunFlags>): Command {
  for (const key of keys) {
    const { flags, description, parse } = RUN_FLAGS[key];
    const option = new Option(flags, description);
    command.addOption(parse ? option.argParser(parse as (value: string, previous: unknown) => unknown) : option);
  }
  return command;
}

/** What commander parsed, under the options' names; keys of the command's own (not in the table) are left out. */
export function runFlagsOf(parsed: Record<string, unknown>): RunFlags {
  const flags: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed)) {
    const key = KEY_OF.get(name);
    if (key && value !== undefined) flags[key] = value;
  }
  return flags as RunFlags;
}
