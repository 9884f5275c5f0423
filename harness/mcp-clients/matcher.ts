/**
 * Each configured stdio entry as an exact argv matcher, in the forms a client's spawn takes: direct
 * (as written, on PATH, or its real path); a shebang script; a PATH shim (pyenv, asdf, nvm) that
 * execs the real program; npx (npm retitles itself `npm exec <package> <args>`, then `sh -c` ->
 * `node <bin>`); uvx (`uv tool uvx` -> `uv tool run` -> python); docker (the CLI keeps the argv).
 */
import path from 'node:path';
import { expand, matches, type ExpandContext, type Expanded } from './expand.js';
import { ProgramNames, realOrSelf, sameProgram } from './resolve-command.js';
import type { ClientId, ConfiguredServer } from './types.js';

export interface ConfigMatch {
  client: ClientId;
  name: string;
  file: string;
  field: string;
  /** Env names the entry sets (never values). */
  envNames: string[];
  /** How it matched, for the output: "command and args match exactly". */
  how: string;
}

interface Seen {
  argv: readonly string[];
  title: string;
  first: Set<string>;
}

interface Prepared {
  server: ConfiguredServer;
  command: string;
  /** The folder the client starts it in (its cwd, else its workspace); null when the client does not say. */
  folder: string | null;
  program: Set<string>;
  args: Expanded[];
  unknown: string[];
  /** For npx: the words npm keeps in its title after `npm exec`. */
  npmTitle: string | null;
  uvx: boolean;
  docker: boolean;
}

/** npm flags that take a value (`--package x`); the others stand alone (`-y`, `--offline`). */
const NPM_VALUE_FLAGS = new Set(['-p', '--package', '-c', '--call', '--registry', '--cache', '--userconfig', '-w', '--workspace', '--prefix']);

function npmTitle(args: string[]): string {
  const words: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-')) break;
    if (NPM_VALUE_FLAGS.has(a)) i++;
  }
  for (; i < args.length; i++) words.push(args[i]!);
  return ['npm', 'exec', ...words].join(' ');
}

export class ConfigMatcher {
  private readonly entries: Prepared[];
  private readonly names: ProgramNames;

  constructor(servers: readonly ConfiguredServer[], ctx: ExpandContext) {
    this.names = new ProgramNames(ctx.env.PATH);
    this.entries = servers.map((server) => {
      const cwdX = server.cwd ? expand(server.cwd, server, ctx) : null;
      const cwd = cwdX && 'text' in cwdX ? cwdX.text : (server.workspace ?? null);
      const commandX = expand(server.command, server, ctx);
      const command = 'text' in commandX ? commandX.text : server.command;
      const args = server.args.map((a) => expand(a, server, ctx));
      const base = path.basename(command);
      const known = args.every((a) => 'text' in a);
      const words = args.map((a) => ('text' in a ? a.text : ''));
      return {
        server,
        command,
        folder: cwd,
        program: this.names.of(command, cwd),
        args,
        unknown: [...commandX.unknown, ...args.flatMap((a) => a.unknown)],
        npmTitle: known && (base === 'npx' || (base === 'npm' && words[0] === 'exec')) ? npmTitle(base === 'npm' ? words.slice(1) : words) : null,
        uvx: base === 'uvx',
        docker: base === 'docker' || base === 'podman',
      };
    });
  }

  get size(): number {
    return this.entries.length;
  }

  /** Every entry this process is, with how. `cwd` resolves a relative command and tells apart entries that run the same line from different folders. */
  match(argv: readonly string[], cwd: string | null = null): ConfigMatch[] {
    const seen = this.seen(argv, cwd);
    return this.collect((e) => this.howArgv(e, seen, cwd), cwd);
  }

  /**
   * The same for a process seen only as one command line (ps joins argv with spaces). An entry
   * whose command or args hold a space is compared whole: the line must end with its args joined.
   */
  matchLine(command: string, cwd: string | null = null): ConfigMatch[] {
    const seen = this.seen(command.split(' '), cwd);
    return this.collect((e) => this.howArgv(e, seen, cwd) ?? this.howJoined(e, command, cwd), cwd);
  }

  /** A process as its backend gives it; its folder is read only when more than one entry matches. */
  matchProcess(p: { pid: number; argv: readonly string[] | null; command: string }, folderOf?: (pid: number) => string | null): ConfigMatch[] {
    const run = (cwd: string | null) => (p.argv ? this.match(p.argv, cwd) : this.matchLine(p.command, cwd));
    const first = run(null);
    if (first.length < 2 || folderOf === undefined) return first;
    const cwd = folderOf(p.pid);
    return cwd === null ? first : run(cwd);
  }

  /** The entries `how` accepts; with several and a known folder, those of that folder are kept if any (a tie-break, never a reason to drop the only match). */
  private collect(how: (e: Prepared) => string | null, cwd: string | null): ConfigMatch[] {
    let hits: { e: Prepared; how: string }[] = [];
    for (const e of this.entries) {
      const h = how(e);
      if (h !== null) hits.push({ e, how: h });
    }
    if (hits.length > 1 && cwd !== null) {
      const here = realOrSelf(cwd);
      const inFolder = hits.filter((x) => x.e.folder !== null && realOrSelf(x.e.folder) === here);
      if (inFolder.length > 0 && inFolder.length < hits.length) {
        const others = hits.length - inFolder.length;
        const why = `; it runs in this entry's folder (${others} other entr${others === 1 ? 'y starts' : 'ies start'} the same command line elsewhere)`;
        hits = inFolder.map((x) => ({ e: x.e, how: x.how + why }));
      }
    }
    return hits.map(({ e, how: h }) => {
      const note = e.unknown.length > 0 ? `; ${e.unknown.join(', ')} matched any value` : '';
      return { client: e.server.client, name: e.server.name, file: e.server.file, field: e.server.field, envNames: e.server.envNames, how: h + note };
    });
  }

  /** What every entry is compared with, worked out once a process: its argv, its title, its program's names. */
  private seen(argv: readonly string[], cwd: string | null): Seen | null {
    if (argv.length === 0) return null;
    return { argv, title: argv.join(' ').trim().replace(/\s+/g, ' '), first: this.names.of(argv[0]!, cwd) };
  }

  private howArgv(e: Prepared, seen: Seen | null, cwd: string | null): string | null {
    return seen === null ? null : this.how(e, seen.argv, seen.title, seen.first, cwd);
  }

  private howJoined(e: Prepared, command: string, cwd: string | null): string | null {
    const args: string[] = [];
    for (const a of e.args) {
      if (!('text' in a)) return null;
      args.push(a.text);
    }
    if (!e.command.includes(' ') && !args.some((a) => a.includes(' '))) return null; // the split said it all
    const tail = args.length > 0 ? ` ${args.join(' ')}` : '';
    if (!command.endsWith(tail) || command.length === tail.length) return null;
    const head = command.slice(0, command.length - tail.length);
    const space = head.indexOf(' ');
    const heads = space > 0 ? [[head], [head.slice(0, space), head.slice(space + 1)], head.split(' ')] : [[head]];
    for (const h of heads) {
      const how = this.howArgv(e, this.seen([...h, ...args], cwd), cwd);
      if (how !== null) return how;
    }
    return null;
  }

  /**
   * Why a process that starts an entry's program is not that entry (a near miss); null when it shares
   * nothing. Never prints the configured args (they may hold values).
   */
  nearMiss(argv: readonly string[]): string | null {
    if (argv.length === 0) return null;
    const first = this.names.of(argv[0]!, null);
    const given = argv.length - 1;
    let best: { e: Prepared; at: number } | null = null;
    for (const e of this.entries) {
      const same = sameProgram(first, e.program) || (!e.command.includes('/') && path.basename(argv[0]!) === e.command);
      if (!same) continue;
      const differs = e.args.findIndex((a, j) => j >= given || !matches(a, argv[1 + j]!));
      const at = differs >= 0 ? differs : e.args.length;
      if (best === null || at > best.at) best = { e, at };
    }
    if (best === null) return null;
    const { e, at } = best;
    const where = at < e.args.length ? `args[${at}] differs` : `it has ${given - e.args.length} more arg${given - e.args.length === 1 ? '' : 's'}`;
    return `${e.server.client}: ${e.server.name} starts ${path.basename(e.command)} too, but ${where} (the entry has ${e.args.length} args, the process ${given})`;
  }

  private how(e: Prepared, argv: readonly string[], title: string, first: Set<string>, cwd: string | null): string | null {
    const argsFrom = (i: number) => argv.length - i === e.args.length && e.args.every((a, j) => matches(a, argv[i + j]!));
    if (e.npmTitle !== null && title === e.npmTitle) return 'npx launcher: `npm exec` with the package and args match exactly';
    if (e.uvx && path.basename(argv[0]!) === 'uv' && argv[1] === 'tool' && (argv[2] === 'uvx' || argv[2] === 'run') && argsFrom(3))
      return `uvx launcher: \`uv tool ${argv[2]}\` with the package and args match exactly`;
    if (sameProgram(first, e.program) && argsFrom(1))
      return e.docker ? 'command and args match exactly (the docker CLI; the server runs in its container)' : 'command and args match exactly';
    if (argv.length >= 2 && argsFrom(2) && sameProgram(this.names.of(argv[1]!, cwd), e.program))
      return `script and args match exactly (run by its interpreter ${path.basename(argv[0]!)})`;
    if (!e.command.includes('/') && path.basename(argv[0]!) === e.command && argsFrom(1))
      return `command and args match exactly; ${e.command} started as ${argv[0]}`;
    return null;
  }
}

export function matchLine(m: ConfigMatch): string {
  return `${m.client}: ${m.name} (${m.how})`;
}
