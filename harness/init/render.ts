/** The text of the files `crash-drill init` writes (scenarios and config). Pure: paths in, text out. */
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Document } from 'yaml';
import type { KillMode, KillPoint } from '../config/index.js';
import { DEFAULT_EXIT_DEADLINE_MS } from '../config/index.js';
import { exampleArgs } from './example-args.js';
import type { ServerCommand } from './list-tools.js';

/**
 * `idle` and `pre-dispatch` kill before the target call is written (docs/design.md, "Kill points"),
 * so the lifecycle scenario drills them once. A tool not annotated read-only counts as writing.
 * The remote's points are commented out: until writes reach the remote each would time out `unknown`.
 */
export const LIFECYCLE_POINTS: readonly KillPoint[] = ['idle', 'pre-dispatch'];
export const TOOL_POINTS: readonly KillPoint[] = ['in-flight', 'after-response'];
export const REMOTE_POINTS: readonly KillPoint[] = ['sent', 'confirmed'];
/** A may-write tool's points, once the server's writes reach the remote. */
export const TOOL_POINTS_WITH_REMOTE: readonly KillPoint[] = ['in-flight', 'sent', 'confirmed', 'after-response'];
export const INIT_MODES: readonly KillMode[] = ['crash', 'close', 'hang'];
/** What the remote's points can show of the server's cleanup expectation (harness/expectation/statements.ts). */
export const REMOTE_EXPECTATION = ['no-write-after-loss', 'writes-carry-key-and-session'] as const;

/** A may-write tool's statement that the server records its actions: `not shown` until the remote's points are on. */
export const WRITE_EXPECTATION = ['records-every-action'] as const;

/** Above a may-write tool's expectation: what the server has to do to meet it. */
const RECORD_NOTE = [
  ' records-every-action: the server keeps its own record of each external action it starts. Before',
  ' a write leaves, it appends one JSON line {"t", "key", "phase": "started"} to the file named in',
  " CRASH_DRILL_ACTIVITY_FILE (key: the Idempotency-Key it sends, or the call's correlation id,",
  ' params._meta["dev.crash-drill/correlation-id"]); when the answer comes, "result"; at shutdown,',
  ' "unresolved" for what is still open. A server that logs its own way names its file or stderr',
  ' lines in subject.activity (docs/remote.md, "The server\'s own activity record"). Shown once the points',
  ' below that need the drill remote are on.',
].join('\n');

/** What a may-write scenario says, commented out, about the points left out of the first run. */
export function remoteHint(): string[] {
  return [
    `# Left out of this first run: the kill points ${REMOTE_POINTS.join(' and ')} and the drill remote's checks`,
    "# (idempotent-effects, quiet-after-loss, ...). They need the server's writes to reach the drill",
    '# remote; until they do, each of those drills waits out its point timeout for nothing. To add',
    "# them, map the server's own API address and credential to the remote under subject:, e.g.",
    '#   env: { API_URL: "{{remote.url}}", API_TOKEN: "{{session.token}}" }',
    '# (a Node server with a hard-coded host: remote: { intercept: [https://api.example.com] }),',
    "# then put these lines in place of `points:` and `expectation:` above (the expectation adds what they show to the server's):",
    `# points: [${TOOL_POINTS_WITH_REMOTE.join(', ')}]`,
    '# remote: {}',
    `# expectation: [${[...WRITE_EXPECTATION, ...REMOTE_EXPECTATION].join(', ')}]`,
  ];
}

/**
 * The starting cleanup expectation (harness/expectation/), with expect.exit-on-eof's default
 * deadline; the lifecycle scenario's, as statements are judged per server across its drills.
 */
export const STARTING_EXPECTATION = ['stops-accepting-calls', { 'exits-within': DEFAULT_EXIT_DEADLINE_MS }, 'leaves-no-helper'] as const;

const EXPECTATION_NOTE =
  " This server's cleanup expectation, judged on the drills of every scenario of the server: each run says of each statement met, not met or not shown.";
const TARGET_NOTE = ' Any tool of the server: at idle and pre-dispatch the client is killed before this call is written.';
const ARGS_NOTE = " Placeholder values built from the tool's inputSchema: adjust them to a call that makes sense.";

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

/** What every scenario of one server says alike. */
export interface ServerTextInput {
  server: ServerCommand;
  fileDir: string;
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

/** The tool a lifecycle scenario names: it does not matter which, so the first that may write, else the first. */
export function lifecycleTarget(tools: readonly Tool[]): Tool {
  return tools.find(isWriteCapable) ?? tools[0]!;
}

/** The server's lifecycle scenario: `idle` and `pre-dispatch`, any tool as the target, and the starting expectation. */
export function lifecycleText(input: ServerTextInput & { id: string; tools: readonly Tool[] }): string {
  const tool = lifecycleTarget(input.tools);
  const count = `${input.tools.length} tool${input.tools.length === 1 ? '' : 's'}`;
  const doc = scenarioDoc(input, {
    id: input.id,
    description: `every tool of the server (${count}): ${LIFECYCLE_POINTS.join(' and ')}, where the target call is never written, so which tool is the target does not matter; written by crash-drill init`,
    tool,
    points: LIFECYCLE_POINTS,
    expectation: true,
    argsNote: false,
  });
  commentKey(doc, 'target', TARGET_NOTE);
  return fileText(input, doc, []);
}

/** A tool's scenario: the points where its call is written. */
export function toolScenarioText(input: ServerTextInput & { id: string; tool: Tool }): string {
  const { tool } = input;
  const write = isWriteCapable(tool);
  const doc = scenarioDoc(input, {
    id: input.id,
    description: `${tool.name}: ${write ? 'may write (not annotated read-only)' : 'read-only'}; ${TOOL_POINTS.join(' and ')}, where the call is written (idle and pre-dispatch are the lifecycle scenario's); written by crash-drill init`,
    tool,
    points: TOOL_POINTS,
    expectation: write ? WRITE_EXPECTATION : false,
    argsNote: true,
  });
  return fileText(input, doc, write ? remoteHint() : []);
}

/** `argsNote`: say the args are placeholders to adjust (not where the call is never written). */
function scenarioDoc(
  input: ServerTextInput,
  s: { id: string; description: string; tool: Tool; points: readonly KillPoint[]; expectation: boolean | readonly string[]; argsNote: boolean },
): Document {
  const { server } = input;
  const subject: Record<string, unknown> = input.subjectName ? { name: input.subjectName, command: server.command } : { command: server.command };
  if (server.args.length > 0) subject.args = server.args;
  const env = input.subjectEnv && Object.keys(input.subjectEnv).length > 0 ? input.subjectEnv : undefined;
  if (env) subject.env = env;
  // Relative when the server's folder is inside the project (the project can move), else absolute.
  const inProject = !path.relative(input.projectDir, server.cwd).startsWith('..');
  const cwd = inProject ? relativeFrom(input.fileDir, server.cwd) : server.cwd;
  if (cwd !== '.') subject.cwd = cwd;

  const body: Record<string, unknown> = {
    id: s.id,
    description: s.description,
    subject,
    target: { call: s.tool.name, args: exampleArgs(s.tool.inputSchema) },
    points: [...s.points],
    modes: [...INIT_MODES],
    ...(s.expectation === true ? { expectation: [...STARTING_EXPECTATION] } : s.expectation ? { expectation: [...s.expectation] } : {}),
  };
  const doc = new Document(body);
  const flow = (key: string[]) => {
    const node = doc.getIn(key, true) as { flow?: boolean } | undefined;
    if (node) node.flow = true;
  };
  flow(['points']);
  flow(['modes']);
  flow(['expectation']);
  if (s.expectation) commentKey(doc, 'expectation', s.expectation === true ? EXPECTATION_NOTE : RECORD_NOTE);
  if (server.args.length > 0) flow(['subject', 'args']);
  if (env) flow(['subject', 'env']);
  const args = doc.getIn(['target', 'args'], true) as { commentBefore?: string } | undefined;
  if (args && s.argsNote) args.commentBefore = ARGS_NOTE;
  return doc;
}

/** A comment above a top-level key (a key's comment is written before its line). */
function commentKey(doc: Document, key: string, comment: string): void {
  const pair = (doc.contents as { items?: Array<{ key: { value?: unknown; commentBefore?: string } }> }).items?.find((p) => p.key.value === key);
  if (pair) pair.key.commentBefore = comment;
}

function fileText(input: ServerTextInput, doc: Document, tail: readonly string[]): string {
  // The modeline first, so editors with the YAML language server validate and complete the file.
  const schema = relativeFrom(input.fileDir, path.join(input.projectDir, SCHEMA_IN_NODE_MODULES));
  const lines = [`# yaml-language-server: $schema=${schema}`, doc.toString({ lineWidth: 0, flowCollectionPadding: false }).trimEnd(), ...tail];
  return `${lines.join('\n')}\n`;
}

/** crash-drill.config.mjs, importing nothing: run from npx's cache, an import of 'mcp-crash-drill' fails; the type is a JSDoc `import()`. */
export function configText(projectDir: string, scenarioDir: string): string {
  const scenarios = relativeFrom(projectDir, scenarioDir);
  return [
    '// Written by `crash-drill init`. Paths are relative to this file.',
    '// It imports nothing, so it loads where mcp-crash-drill is not installed (npx crash-drill run);',
    "// where it is, `import { defineConfig } from 'mcp-crash-drill'` works as well.",
    "/** @type {import('mcp-crash-drill').DrillConfig} */",
    'export default {',
    `  scenarios: [${JSON.stringify(scenarios)}],`,
    "  out: 'crash-drill-report',",
    '};',
    '',
  ].join('\n');
}
