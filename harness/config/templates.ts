import path from 'node:path';
import { ConfigError, type ConfigProblem } from './errors.js';
import { formatFieldPath } from './field-path.js';
import { suggestKey } from './suggest.js';
import type { ActivitySpec, Scenario, TemplateContext } from './types.js';

/** `{{name}}` templates in scenario values (never keys): checked at load, rendered per drill once the remote, session and temp folder exist. */

/** The context fields a fixed template reads: every one but the files map. */
type TemplateKey = Exclude<keyof TemplateContext, 'files'>;

/** Template name -> the context field that supplies it, and why it may be missing. */
const TEMPLATES: Readonly<Record<string, { key: TemplateKey; missing: string }>> = {
  'remote.url': { key: 'remoteUrl', missing: 'this drill has no drill remote' },
  'remote.apiKey': { key: 'remoteApiKey', missing: 'this drill has no drill remote' },
  'session.token': { key: 'sessionToken', missing: 'this drill has no session token' },
  'run.id': { key: 'runId', missing: 'the drill id is not known' },
  tmp: { key: 'tmp', missing: 'this drill has no temp folder' },
  'scenario.dir': { key: 'scenarioDir', missing: 'the scenario folder is not known' },
  'remote.httpsUrl': { key: 'remoteHttpsUrl', missing: 'the drill remote serves HTTPS only to a scenario with a remote: section' },
  'remote.caFile': { key: 'remoteCaFile', missing: "the run's CA is written only for a scenario with a remote: section" },
  'remote.caBase64': { key: 'remoteCaBase64', missing: "the run's CA is made only for a scenario with a remote: section" },
  'activity.file': { key: 'activityFile', missing: 'this drill has no activity record file' },
};

/** `{{env.NAME}}`: NAME from the harness's environment at render; `init --from-client` writes it so a scenario never copies a secret. */
const ENV_TEMPLATE = /^env\.([A-Za-z_][A-Za-z0-9_]*)$/;

/** `{{files.<name>}}`: the path of the subject's file of that name (`subject.files`), in the drill's temp folder. */
const FILES_TEMPLATE = /^files\.([A-Za-z0-9][A-Za-z0-9._-]*)$/;

export const TEMPLATE_NAMES: readonly string[] = Object.freeze(Object.keys(TEMPLATES));

function isKnown(name: string): boolean {
  return name in TEMPLATES || ENV_TEMPLATE.test(name) || FILES_TEMPLATE.test(name);
}

// `{{ name }}` with optional inner spaces; no nesting, no escapes.
const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function hasTemplate(s: string): boolean {
  TEMPLATE.lastIndex = 0;
  return TEMPLATE.test(s);
}

function unknownTemplateMessage(name: string): string {
  const near = suggestKey(name, TEMPLATE_NAMES);
  const known = [...TEMPLATE_NAMES, 'env.NAME', 'files.NAME'].map((n) => `{{${n}}}`).join(', ');
  return `unknown template {{${name}}}; known: ${known}${near !== undefined ? ` (did you mean {{${near}}}?)` : ''}`;
}

/** Every unknown template name in a value, deeply, as problems with field paths. */
export function findUnknownTemplates(value: unknown, at: readonly PropertyKey[]): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  walk(value, [...at], (s, where) => {
    for (const m of s.matchAll(TEMPLATE)) {
      if (!isKnown(m[1])) out.push({ field: formatFieldPath(where), message: unknownTemplateMessage(m[1]) });
    }
    return s;
  });
  return out;
}

/** The variables a value reads through `{{env.NAME}}`: usually credentials, so a drill redacts them from its evidence. */
export function envTemplateNames(value: unknown): string[] {
  const names = new Set<string>();
  walk(value, [], (s) => {
    for (const m of s.matchAll(TEMPLATE)) {
      const name = ENV_TEMPLATE.exec(m[1])?.[1];
      if (name) names.add(name);
    }
    return s;
  });
  return [...names];
}

/** Renders every template in `value` deeply into a new value; a missing value is a ConfigError naming the field, so the drill is `error`. */
export function renderTemplates<T>(value: T, ctx: TemplateContext, at = ''): T {
  return renderAt(value, ctx, at, undefined);
}

function renderAt<T>(value: T, ctx: TemplateContext, prefix: string, file: string | undefined): T {
  return walk(value, [], (s, where) =>
    s.replace(TEMPLATE, (_all, name: string) => {
      const field = joinField(prefix, formatFieldPath(where));
      const envName = ENV_TEMPLATE.exec(name)?.[1];
      if (envName !== undefined) {
        const value = process.env[envName];
        if (value === undefined)
          throw new ConfigError({ file, field, message: `template {{${name}}} has no value: ${envName} is not set in the environment crash-drill runs in` });
        return value;
      }
      const fileName = FILES_TEMPLATE.exec(name)?.[1];
      if (fileName !== undefined) {
        const filePath = ctx.files?.[fileName];
        if (filePath === undefined)
          throw new ConfigError({ file, field, message: `template {{${name}}} has no value: subject.files has no file "${fileName}"` });
        return filePath;
      }
      const def = TEMPLATES[name];
      if (def === undefined) throw new ConfigError({ file, field, message: unknownTemplateMessage(name) });
      const v = ctx[def.key];
      if (v === undefined) {
        throw new ConfigError({ file, field, message: `template {{${name}}} has no value: ${def.missing}` });
      }
      return v;
    }),
  ) as T;
}

function joinField(prefix: string, rest: string): string | undefined {
  if (prefix === '') return rest === '' ? undefined : rest;
  if (rest === '') return prefix;
  return rest.startsWith('[') ? prefix + rest : `${prefix}.${rest}`;
}

/** Renders a scenario's templated fields for one drill; a templated cwd is then resolved against the scenario folder. */
export function renderScenario(scenario: Scenario, ctx: TemplateContext): Scenario {
  const f = scenario.file;
  const subject = scenario.subject;
  const cwd = path.resolve(scenario.dir, renderAt(subject.cwd, ctx, 'subject.cwd', f));
  return {
    ...scenario,
    subject: {
      ...subject,
      args: renderAt(subject.args, ctx, 'subject.args', f),
      env: renderAt(subject.env, ctx, 'subject.env', f),
      cwd,
      ...(subject.files ? { files: renderAt(subject.files, ctx, 'subject.files', f) } : {}),
      ...(subject.activity ? { activity: renderActivity(subject.activity, ctx, cwd, f) } : {}),
    },
    setup: scenario.setup.map((step, i) => ({ ...step, args: renderAt(step.args, ctx, `setup[${i}].args`, f) })),
    target: scenario.target && { ...scenario.target, args: renderAt(scenario.target.args, ctx, 'target.args', f) },
  };
}

/** A subject's activity file rendered like env, and made absolute against the subject's folder (its rendered cwd). */
function renderActivity(activity: ActivitySpec, ctx: TemplateContext, cwd: string, file: string): ActivitySpec {
  if (activity.source.kind !== 'file') return activity;
  return { ...activity, source: { kind: 'file', path: path.resolve(cwd, renderAt(activity.source.path, ctx, 'subject.activity.file', file)) } };
}

function walk(value: unknown, at: PropertyKey[], fn: (s: string, at: PropertyKey[]) => string): unknown {
  if (typeof value === 'string') return fn(value, at);
  if (Array.isArray(value)) return value.map((v, i) => walk(v, [...at, i], fn));
  if (isPlainObject(value)) {
    // fromEntries defines own properties, so a YAML key `__proto__` stays a plain key.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...at, k], fn)]));
  }
  return value;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}
