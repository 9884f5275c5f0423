/**
 * The text of the files `crash-drill init` writes: one scenario per tool and the config file.
 * Pure: paths in, text out; nothing is read or written here.
 */
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Document } from 'yaml';
import type { KillPoint } from '../config/types.js';
import { DEFAULT_EXIT_DEADLINE_MS } from '../config/normalise.js';
import { exampleArgs } from './example-args.js';
import type { ServerCommand } from './list-tools.js';

/**
 * A tool that may change something gets every kill point around a write; one that only reads
 * gets the points that show cleanup. The annotations are hints (MCP spec, tools), so a tool
 * that does not say it is read-only is treated as one that writes.
 *
 * The first run leaves out the points that need the drill remote (REMOTE_POINTS): until the
 * server's writes reach the remote, each such drill waits out its point timeout (5 s) for an
 * `unknown`. They are written commented out, with how to map the server's API to the remote.
 */
export const WRITE_POINTS: readonly KillPoint[] = ['idle', 'pre-dispatch', 'in-flight', 'after-response'];
export const READ_POINTS: readonly KillPoint[] = ['idle', 'in-flight', 'after-response'];
export const REMOTE_POINTS: readonly KillPoint[] = ['sent', 'confirmed'];
/** Every point around a write, once the server's writes reach the remote. */
export const WRITE_POINTS_WITH_REMOTE: readonly KillPoint[] = ['idle', 'pre-dispatch', 'in-flight', 'sent', 'confirmed', 'after-response'];

/** What a may-write scenario says, commented out, about the points left out of the first run. */
export function remoteHint(): string[] {
  return [
    `# Left out of this first run: the kill points ${REMOTE_POINTS.join(' and ')} and the drill remote's checks`,
    "# (idempotent-effects, quiet-after-loss, ...). They need the server's writes to reach the drill",
    '# remote; until they do, each of those drills waits out its point timeout for nothing. To add',
    "# them, map the server's own API address and credential to the remote under subject:, e.g.",
    '#   env: { API_URL: "{{remote.url}}", API_TOKEN: "{{session.token}}" }',
    '# (a Node server with a hard-coded host: remote: { intercept: [https://api.example.com] }),',
    '# then put these two lines in place of `points:` above:',
    `# points: [${WRITE_POINTS_WITH_REMOTE.join(', ')}]`,
    '# remote: {}',
  ];
}

/**
 * The starting cleanup expectation (harness/expectation/): what these points and modes can show,
 * with the exit deadline the drills use (expect.exit-on-eof's default). Each run says of each
 * statement met, not met or not shown.
 */
export const STARTING_EXPECTATION = ['stops-accepting-calls', { 'exits-within': DEFAULT_EXIT_DEADLINE_MS }, 'leaves-no-helper'] as const;

const EXPECTATION_NOTE = " This server's cleanup expectation: each run says of each statement met, not met or not shown.";
const EXPECTATION_REMOTE_NOTE = ' Once its writes reach the drill remote (below), add no-write-after-loss and writes-carry-key-and-session.';

export const SCHEMA_IN_NODE_MODULES = 'node_modules/mcp-crash-drill/schema/scenario.schema.json';

export function isWriteCapable(tool: Pick<Tool, 'annotations'>): boolean {
  return tool.annotations?.destructiveHint === true || tool.annotations?.readOnlyHint !== true;
}

/** A scenario id (and file name) for a tool name: [a-z0-9][a-z0-9._-]*, unique among `taken`. */
export function scenarioIdFor(toolName: string, taken: Set<string>): string {
  let base = toolName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '');
  if (base === '') base = 'tool';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

export interface ScenarioTextInput {
  tool: Tool;
  id: string;
  server: ServerCommand;
  /** absolute folder the scenario file goes into */
  scenarioDir: string;
  /** absolute project folder (where node_modules and the config file are) */
  projectDir: string;
  /** From a client configuration (init --from-client): the subject's name and its env, as written. */
  subjectName?: string;
  subjectEnv?: Record<string, string>;
}

/** Paths in a file are written relative to it, with forward slashes, so the folder can move. */
function relativeFrom(fromDir: string, to: string): string {
  const rel = path.relative(fromDir, to).split(path.sep).join('/');
  return rel === '' ? '.' : rel;
}

export function scenarioText(input: ScenarioTextInput): string {
  const { tool, server } = input;
  const write = isWriteCapable(tool);
  const subject: Record<string, unknown> = input.subjectName ? { name: input.subjectName, command: server.command } : { command: server.command };
  if (server.args.length > 0) subject.args = server.args;
  if (input.subjectEnv && Object.keys(input.subjectEnv).length > 0) subject.env = input.subjectEnv;
  // Relative when the server's folder is inside the project (the project can move), else absolute.
  const inProject = !path.relative(input.projectDir, server.cwd).startsWith('..');
  const cwd = inProject ? relativeFrom(input.scenarioDir, server.cwd) : server.cwd;
  if (cwd !== '.') subject.cwd = cwd;

  const body: Record<string, unknown> = {
    id: input.id,
    description: `${tool.name}: ${write ? 'may write (not annotated read-only)' : 'read-only'}; written by crash-drill init`,
    subject,
    target: { call: tool.name, args: exampleArgs(tool.inputSchema) },
    points: [...(write ? WRITE_POINTS : READ_POINTS)],
    modes: ['crash', 'close', 'hang'],
    expectation: [...STARTING_EXPECTATION],
  };
  const doc = new Document(body);
  const flow = (key: string[]) => {
    const node = doc.getIn(key, true) as { flow?: boolean } | undefined;
    if (node) node.flow = true;
  };
  flow(['points']);
  flow(['modes']);
  flow(['expectation']);
  // The note goes above the `expectation:` key (a key's comment is written before its line).
  const pair = (doc.contents as { items?: Array<{ key: { value?: unknown; commentBefore?: string } }> }).items?.find((p) => p.key.value === 'expectation');
  if (pair) pair.key.commentBefore = write ? `${EXPECTATION_NOTE}\n${EXPECTATION_REMOTE_NOTE}` : EXPECTATION_NOTE;
  if (server.args.length > 0) flow(['subject', 'args']);
  if (input.subjectEnv && Object.keys(input.subjectEnv).length > 0) flow(['subject', 'env']);
  const args = doc.getIn(['target', 'args'], true) as { commentBefore?: string } | undefined;
  if (args) args.commentBefore = " Placeholder values built from the tool's inputSchema: adjust them to a call that makes sense.";

  // The modeline first, so editors with the YAML language server validate and complete the file.
  const schema = relativeFrom(input.scenarioDir, path.join(input.projectDir, SCHEMA_IN_NODE_MODULES));
  const lines = [`# yaml-language-server: $schema=${schema}`, doc.toString({ lineWidth: 0, flowCollectionPadding: false }).trimEnd()];
  if (write) lines.push(...remoteHint());
  return `${lines.join('\n')}\n`;
}

/** crash-drill.config.mjs: the scenarios folder and the report folder, relative to the config. */
export function configText(projectDir: string, scenarioDir: string): string {
  const scenarios = relativeFrom(projectDir, scenarioDir);
  return [
    '// Written by `crash-drill init`. Paths are relative to this file.',
    "import { defineConfig } from 'mcp-crash-drill';",
    '',
    'export default defineConfig({',
    `  scenarios: [${JSON.stringify(scenarios)}],`,
    "  out: 'crash-drill-report',",
    '});',
    '',
  ].join('\n');
}
