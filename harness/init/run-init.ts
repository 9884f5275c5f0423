/** `crash-drill init`: lists tools, checks everything (existing files, id-clash.ts, `run`'s parser), then writes (server-files.ts). */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE_NAMES, findConfigFile } from '../run/config-file.js';
import { EXIT, UsageError } from '../util/errors.js';
import { displayPath } from '../util/paths.js';
import { askServerCommand } from './ask-command.js';
import { idClashes } from './id-clash.js';
import { listServerTools, ListToolsError, type ServerCommand } from './list-tools.js';
import { configText, INIT_MODES, isWriteCapable, LIFECYCLE_POINTS, REMOTE_POINTS, TOOL_POINTS } from './render.js';
import { serverFiles, type ServerFile } from './server-files.js';
import { writeAll, type PlannedFile } from './write-files.js';
import { DEFAULT_INIT_TIMEOUT_MS } from './defaults.js';

export const INIT_CONFIG_FILE = 'crash-drill.config.mjs';
export { DEFAULT_INIT_TIMEOUT_MS };

export interface InitOptions {
  command?: string;
  arg?: string[];
  /** the server's working folder (default: the current folder) */
  cwd?: string;
  force?: boolean;
  /** the scenarios folder (default: scenarios) */
  dir?: string;
  /** how long the server may take to start and list its tools, ms */
  timeout?: number;
}

export interface InitIo {
  /** the project folder: the config file goes here, relative options resolve from here */
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const USAGE = 'usage: crash-drill init [--cwd <dir>] [--dir <scenarios dir>] [--force] [--] <command> [args...]   (or --command <cmd> [--arg <a>]...)';

/**
 * Runs init and returns the exit code: 0 written, 4 the server could not be asked. A usage error or
 * a file in the way is a `UsageError` (exit 3, through the command's commandExit).
 */
export async function runInit(options: InitOptions, io: InitIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`crash-drill: init: ${line}\n`);
  const projectDir = path.resolve(io.cwd);
  const scenarioDir = path.resolve(projectDir, options.dir ?? 'scenarios');
  const configFile = path.join(projectDir, INIT_CONFIG_FILE);
  const force = options.force === true;

  // Refuse early what can be refused before starting anything.
  if (!force && existsSync(configFile)) {
    throw new UsageError(`${displayPath(configFile)} exists already; refusing to overwrite it (use --force to overwrite)`);
  }
  const serverCwd = path.resolve(projectDir, options.cwd ?? '.');
  if (!existsSync(serverCwd) || !statSync(serverCwd).isDirectory()) {
    throw new UsageError(`--cwd: no such folder: ${serverCwd}`);
  }
  if (existsSync(scenarioDir) && !statSync(scenarioDir).isDirectory()) {
    throw new UsageError(`--dir: ${displayPath(scenarioDir)} is a file, expected a folder`);
  }

  let words: string[];
  if (options.command !== undefined) {
    words = [options.command, ...(options.arg ?? [])];
  } else if (io.stdin.isTTY === true && (options.arg ?? []).length === 0) {
    words = await askServerCommand(io.stdin, io.stderr);
  } else {
    const why = (options.arg ?? []).length > 0 ? ' (--arg needs --command)' : ', and stdin is not a terminal to ask on';
    throw new UsageError(`no server command given${why}\n${USAGE}`);
  }
  const server: ServerCommand = { command: words[0], args: words.slice(1), cwd: serverCwd };

  let tools;
  let ended;
  try {
    ({ tools, ended } = await listServerTools(server, options.timeout ?? DEFAULT_INIT_TIMEOUT_MS));
  } catch (error) {
    if (!(error instanceof ListToolsError)) throw error;
    say(error.message);
    if (error.stderrTail) io.stderr.write(`\n${error.stderrTail}\n`);
    return EXIT.harness;
  }
  for (const p of ended) {
    // Worth knowing before the first drill: this is what exit-on-eof and no-survivors judge.
    say(`note: pid ${p.pid} (${p.cmdline.join(' ')}) was still running after the client closed; ended it (${p.endedBy})`);
  }
  if (tools.length === 0) {
    throw new UsageError(`\`${words.join(' ')}\` lists no tools: there is no call to drill, so nothing was written`);
  }

  const files = serverFiles({ tools, server, dir: scenarioDir, projectDir, idPrefix: '', takenIds: new Set(), label: `\`${words.join(' ')}\`` });
  const clashes = await idClashes(scenarioDir, files);
  if (clashes.length > 0) {
    throw new UsageError(
      clashes
        .map(
          (line) =>
            `${line}: scenario ids must be unique, so run would refuse both; move or remove it (an earlier init wrote one scenario per tool at the top of the folder)`,
        )
        .join('\n') + '; nothing was written',
    );
  }
  const planned: PlannedFile[] = [{ file: configFile, text: configText(projectDir, scenarioDir) }, ...files];
  await writeAll(planned, force);

  const out = io.stdout;
  const drills = files.reduce((n, f) => n + f.drills, 0);
  out.write(
    `wrote ${displayPath(configFile)} and ${files.length} scenarios (${drills} drills: each point in ${modesText()}):\n${files.map(listingLine).join('\n')}\n`,
  );
  const other = findConfigFile(projectDir);
  if (other !== null && other !== configFile) {
    out.write(`note: ${displayPath(other)} is found before ${INIT_CONFIG_FILE} (order: ${CONFIG_FILE_NAMES.join(', ')})\n`);
  }
  if (tools.some(isWriteCapable)) {
    out.write(
      `${REMOTE_POINTS.join(' and ')} are left out of this first run: they need the server's writes to reach the drill remote (how: the comment at the end of each may-write scenario)\n`,
    );
  }
  out.write('Adjust the placeholder args in each scenario, then run: npx crash-drill run\n');
  return EXIT.ok;
}

/** A written scenario as init lists it: the file, then what it drills and at which points. */
export function listingLine(f: ServerFile): string {
  if (f.tool === null) return `  ${displayPath(f.file)}  every tool (${LIFECYCLE_POINTS.join(', ')}: the call is never written, so the tool does not matter)`;
  return `  ${displayPath(f.file)}  ${f.tool.name} (${isWriteCapable(f.tool) ? 'may write' : 'read-only'}: ${TOOL_POINTS.join(', ')})`;
}

/** "crash, close and hang" */
export function modesText(): string {
  return `${INIT_MODES.slice(0, -1).join(', ')} and ${INIT_MODES.at(-1)}`;
}
