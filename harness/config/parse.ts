import path from 'node:path';
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { ConfigError, type ConfigProblem } from './errors.js';
import { formatFieldPath } from './field-path.js';
import { problemsFromIssues } from './issues.js';
import { normaliseScenario } from './normalise.js';
import { type ParsedScenario, ScenarioSchema } from './schema.js';
import { findUnknownTemplates, hasTemplate } from './templates.js';
import { DEFAULT_KILL_POINTS, KILL_POINTS, type KillPoint, POINT_NEEDS, type Scenario, type SubjectSpec } from './types.js';

/** Parses and validates one scenario file's text; a ConfigError names the file and each problem's field path or line and column. */
export function parseScenario(text: string, file: string, options: ScenarioOptions = {}): Scenario {
  const abs = path.resolve(file);
  return validateScenario(readYaml(text, abs), abs, options);
}

export interface ScenarioOptions {
  /** The run's `--subject`s: a file that names no subject drills these (without them, that file is an error). */
  subjects?: readonly SubjectSpec[];
}

/** Validates and normalises one scenario already read into plain values (YAML, or inline in a config file). */
export function validateScenario(raw: unknown, file: string, options: ScenarioOptions = {}): Scenario {
  const abs = path.resolve(file);
  const fail = (problems: ConfigProblem[]): never => {
    throw new ConfigError(problems.map((p) => ({ file: abs, ...p })));
  };

  if (raw === null || raw === undefined) {
    fail([{ message: 'the file is empty; expected a mapping with at least id, subject and target' }]);
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    const found = Array.isArray(raw) ? 'a list' : `${typeof raw} ${JSON.stringify(raw)}`;
    fail([{ message: `expected a mapping (id, subject, target, ...) at the top level, got ${found}` }]);
  }

  const given = options.subjects ?? [];
  const needs = needProblems(raw as Record<string, unknown>, given.length > 0);
  const result = ScenarioSchema.safeParse(raw);
  if (!result.success) fail([...problemsFromIssues(result.error.issues, raw), ...needs]);
  if (needs.length > 0) fail(needs);
  const parsed = result.data as ParsedScenario;

  const templateProblems = checkTemplates(parsed);
  if (templateProblems.length > 0) fail(templateProblems);

  const scenario = normaliseScenario(parsed, abs, given);
  // Subjects compared side by side are told apart by name in every report.
  const names = scenario.subjects.map((s) => s.name);
  const dup = names.findIndex((name, i) => names.indexOf(name) !== i);
  if (dup >= 0)
    fail([
      {
        field: formatFieldPath(['subjects', dup, 'name']),
        message: `expected a name no other subject has, got "${names[dup]}" twice (set name: to tell them apart)`,
      },
    ]);
  return scenario;
}

/** What the schema cannot say: a subject (unless `--subject` stands in) and `target:` where a point needs it (POINT_NEEDS). */
function needProblems(raw: Record<string, unknown>, subjectGiven: boolean): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (raw.subject === undefined && raw.subjects === undefined && !subjectGiven)
    problems.push({ field: 'subject', message: 'expected a subject (or a list of subjects), got nothing' });
  if (raw.target === undefined) {
    const points = raw.points === undefined ? DEFAULT_KILL_POINTS : Array.isArray(raw.points) ? raw.points.filter(isKillPoint) : [];
    const needing = points.filter((point) => POINT_NEEDS[point].target);
    if (needing.length > 0)
      problems.push({
        field: 'target',
        message: `expected a target call ({ call: <tool> }), which the ${raw.points === undefined ? 'default ' : ''}points ${needing.join(', ')} need; got nothing (points: [idle] alone needs none)`,
      });
  }
  return problems;
}

function isKillPoint(value: unknown): value is KillPoint {
  return typeof value === 'string' && (KILL_POINTS as readonly string[]).includes(value);
}

function readYaml(text: string, file: string): unknown {
  // prettyErrors off: we build one `file:line:col: message`, the position from a LineCounter.
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter: lines });
  const err: YAMLError | undefined = doc.errors[0];
  if (err !== undefined) {
    const pos = lines.linePos(err.pos[0]);
    const message =
      err.code === 'MULTIPLE_DOCS'
        ? 'YAML syntax error: a scenario file holds one document, found more than one (a second `---`)'
        : `YAML syntax error: ${err.message}`;
    throw new ConfigError({ file, line: pos?.line, col: pos?.col, message });
  }
  if (doc.contents === null) return null;
  try {
    return doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    throw new ConfigError({ file, message: `YAML error: ${(e as Error).message}` });
  }
}

/** A template anywhere it would not be rendered (templates.ts) is an error too: a literal `{{run.id}}` would fail far from its cause. */
function checkTemplates(p: ParsedScenario): ConfigProblem[] {
  const subjects: Array<[PropertyKey[], NonNullable<ParsedScenario['subject']>]> = p.subjects
    ? p.subjects.map((s, i) => [['subjects', i], s])
    : p.subject
      ? [[['subject'], p.subject]]
      : [];
  const out: ConfigProblem[] = [
    ...subjects.flatMap(([at, s]) => [
      ...findUnknownTemplates(s.args, [...at, 'args']),
      ...findUnknownTemplates(s.env, [...at, 'env']),
      ...(s.cwd === undefined ? [] : findUnknownTemplates(s.cwd, [...at, 'cwd'])),
      ...(s.files === undefined ? [] : findUnknownTemplates(s.files, [...at, 'files'])),
      ...(s.activity?.file === undefined ? [] : findUnknownTemplates(s.activity.file, [...at, 'activity', 'file'])),
    ]),
    ...p.setup.flatMap((c, i) => findUnknownTemplates(c.args, ['setup', i, 'args'])),
    ...(p.target ? findUnknownTemplates(p.target.args, ['target', 'args']) : []),
  ];
  const notRendered: [PropertyKey[], string | undefined][] = [
    ...subjects.flatMap(([at, s]): [PropertyKey[], string | undefined][] => [
      [[...at, 'command'], s.command],
      [[...at, 'name'], s.name],
    ]),
    ...p.setup.map((c, i): [PropertyKey[], string | undefined] => [['setup', i, 'call'], c.call]),
    [['target', 'call'], p.target?.call],
  ];
  for (const [where, value] of notRendered) {
    if (value !== undefined && hasTemplate(value)) {
      out.push({
        field: formatFieldPath(where),
        message:
          'templates are not rendered here; use them in subject.args, subject.env, subject.cwd, subject.files, subject.activity.file, setup[*].args or target.args',
      });
    }
  }
  return out;
}
