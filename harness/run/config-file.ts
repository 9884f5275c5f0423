/** The config file, `crash-drill.config.{ts,mts,js,mjs}` in the working folder (found as vitest finds its own); its paths are relative to it. */
import { existsSync, promises as fs, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod';
import type { DrillConfig } from './run-plan.js';
import { ConfigError, type ConfigProblem } from '../config/index.js';
import { formatFieldPath } from '../config/index.js';
import { problemsFromIssues } from '../config/index.js';
import { validateScenario } from '../config/index.js';
import { suggestKey } from '../config/index.js';
import { KILL_MODES, KILL_POINTS, NETWORK_CHOICES, PROTOCOL_CHOICES, type Scenario } from '../config/index.js';
import { ProfileRefSchema } from '../config/index.js';

/** In the order they are looked for (vitest's `configFiles` order: ts before js). */
export const CONFIG_FILE_NAMES = ['crash-drill.config.ts', 'crash-drill.config.mts', 'crash-drill.config.js', 'crash-drill.config.mjs'] as const;

// The built-in reporter names; any other reporter string is a module path (reports/load-reporters.ts).
const BUILTIN_REPORTER_NAMES = new Set(['console', 'json', 'junit', 'markdown', 'html']);

const nonEmptyList = <T extends z.ZodType>(item: T) => z.array(item).min(1);

/** Validates only; the values handed on are the file's own (reporter objects keep their prototypes). */
const ConfigSchema = z.strictObject({
  scenarios: nonEmptyList(
    z.union([z.string().min(1), z.record(z.string(), z.unknown())], {
      error: 'expected a scenario file or folder (a string) or a scenario object (defineScenario)',
    }),
  ),
  points: nonEmptyList(z.enum(KILL_POINTS)).optional(),
  modes: nonEmptyList(z.enum(KILL_MODES)).optional(),
  protocol: z.enum(PROTOCOL_CHOICES, { error: `expected one of ${PROTOCOL_CHOICES.join(', ')}` }).optional(),
  network: z.enum(NETWORK_CHOICES, { error: `expected one of ${NETWORK_CHOICES.join(', ')}` }).optional(),
  /** Replaces every scenario's client profiles (harness/client-profiles/): each drill runs once per profile. */
  clientProfiles: nonEmptyList(ProfileRefSchema).optional(),
  only: nonEmptyList(z.string().min(1)).optional(),
  concurrency: z.number().int().positive().optional(),
  out: z.string().min(1).optional(),
  reporters: z
    .array(
      z.union([z.string().min(1), z.looseObject({ name: z.string().min(1) })], {
        error: 'expected a reporter name, a module path or a reporter object with a name',
      }),
    )
    .optional(),
  signal: z.instanceof(AbortSignal).optional(),
  /** A run whose plan holds no drill passes instead of failing (`--pass-with-no-drills`). */
  passWithNoDrills: z.boolean().optional(),
  /** A baseline file of known failures (harness/baseline), relative to the config file. */
  baseline: z.string().min(1).optional(),
  /** Read by the live-machine commands (harness/live-machine/config-match.ts, through this loader); `run` ignores it. */
  orphans: z.strictObject({ match: z.array(z.string().min(1)).optional() }).optional(),
});

const KNOWN_CONFIG_KEYS = Object.keys(ConfigSchema.shape);

/** The config file in `cwd`, as an absolute path, or null when there is none. */
export function findConfigFile(cwd: string): string | null {
  for (const name of CONFIG_FILE_NAMES) {
    const file = path.resolve(cwd, name);
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

export interface LoadConfigOptions {
  /** Where to look for `typescript` for a `.ts` config: the config's own project, then this package's. */
  typescriptFrom?: readonly string[];
  /** For the live-machine commands, which read only `orphans`: a config without scenarios is valid. */
  scenariosOptional?: boolean;
}

/** Imports a config file and validates its default export; paths come back absolute, a user's mistake as a ConfigError. */
export async function loadConfigFile(file: string, options: LoadConfigOptions = {}): Promise<DrillConfig> {
  const abs = path.resolve(file);
  if (!existsSync(abs)) throw new ConfigError({ file: abs, message: 'no such config file' });
  const raw = await importDefault(abs, options);
  return validateConfig(raw, abs, options.scenariosOptional === true);
}

/** Validates and normalises one inline scenario like a YAML file; relative paths resolve from the config file's folder. */
export function scenarioFromObject(input: unknown, file: string): Scenario {
  return validateScenario(input, file);
}

function validateConfig(raw: unknown, file: string, scenariosOptional: boolean): DrillConfig {
  const fail = (problems: ConfigProblem[]): never => {
    throw new ConfigError(problems.map((p) => ({ file, ...p })));
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const found = raw === undefined ? 'no default export' : Array.isArray(raw) ? 'a list' : `${raw === null ? 'null' : typeof raw}`;
    fail([{ message: `expected a default export such as \`export default defineConfig({ scenarios: ['scenarios'] })\`, got ${found}` }]);
  }
  const result = (scenariosOptional ? ConfigSchema.partial({ scenarios: true }) : ConfigSchema).safeParse(raw);
  if (!result.success) fail(configProblems(result.error.issues, raw));

  const input = raw as Record<string, unknown> & DrillConfigInput;
  const dir = path.dirname(file);
  const problems: ConfigProblem[] = [];
  const scenarios: Array<string | Scenario> = [];
  const inlineIds = new Map<string, number>();
  (input.scenarios ?? []).forEach((entry, i) => {
    if (typeof entry === 'string') {
      scenarios.push(path.resolve(dir, entry));
      return;
    }
    try {
      const scenario = scenarioFromObject(entry, file);
      const first = inlineIds.get(scenario.id);
      if (first !== undefined) {
        problems.push({ field: formatFieldPath(['scenarios', i, 'id']), message: `duplicate id "${scenario.id}", already used by scenarios[${first}]` });
      } else inlineIds.set(scenario.id, i);
      scenarios.push(scenario);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      for (const p of e.problems) problems.push({ ...p, file, field: p.field ? `scenarios[${i}].${p.field}` : `scenarios[${i}]` });
    }
  });
  if (problems.length > 0) fail(problems);

  const config: DrillConfig = { scenarios };
  if (input.points) config.points = [...input.points];
  if (input.modes) config.modes = [...input.modes];
  if (input.protocol) config.protocol = input.protocol;
  if (input.network) config.network = input.network;
  if (input.clientProfiles) config.clientProfiles = [...new Set(input.clientProfiles)];
  if (input.only) config.only = [...input.only];
  if (input.concurrency !== undefined) config.concurrency = input.concurrency;
  if (input.passWithNoDrills !== undefined) config.passWithNoDrills = input.passWithNoDrills;
  if (input.out !== undefined) config.out = path.resolve(dir, input.out);
  if (input.reporters) {
    config.reporters = input.reporters.map((r) => (typeof r === 'string' && !BUILTIN_REPORTER_NAMES.has(r) ? path.resolve(dir, r) : r));
  }
  if (input.signal) config.signal = input.signal;
  if (input.baseline !== undefined) config.baseline = path.resolve(dir, input.baseline);
  if (input.orphans) config.orphans = { ...input.orphans, ...(input.orphans.match ? { match: [...input.orphans.match] } : {}) };
  return config;
}

type DrillConfigInput = Omit<DrillConfig, 'scenarios'> & { scenarios?: Array<string | Record<string, unknown>> };

/** Unknown top-level keys get their own "did you mean"; the rest read like scenario problems. */
function configProblems(issues: readonly z.core.$ZodIssue[], raw: unknown): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const rest: z.core.$ZodIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
      for (const key of issue.keys) {
        const near = suggestKey(key, KNOWN_CONFIG_KEYS);
        const message = near ? `unknown field; did you mean "${near}"?` : `unknown field; known: ${KNOWN_CONFIG_KEYS.join(', ')}`;
        out.push({ field: formatFieldPath([key]), message });
      }
    } else rest.push(issue);
  }
  return [...out, ...problemsFromIssues(rest, raw)];
}

let loads = 0;

async function importDefault(file: string, options: LoadConfigOptions): Promise<unknown> {
  const isTs = /\.m?ts$/.test(file);
  let target = file;
  let temp: string | null = null;
  if (isTs) {
    temp = await transpileToTemp(file, options);
    target = temp;
  }
  try {
    // A query makes each load a fresh module: a long-lived process must not get a cached, since edited, config.
    const mod = (await import(`${pathToFileURL(target).href}?t=${Date.now()}-${++loads}`)) as { default?: unknown };
    return mod.default;
  } catch (e) {
    const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new ConfigError({ file, message: `cannot load the config: ${message}` });
  } finally {
    if (temp) await fs.rm(temp, { force: true });
  }
}

/** Node 20 cannot import TypeScript: a `.ts` config is transpiled to a temp `.mjs` beside it, so its imports resolve (as vitest does). */
async function transpileToTemp(file: string, options: LoadConfigOptions): Promise<string> {
  const ts = await loadTypeScript(file, options.typescriptFrom ?? [file, import.meta.url]);
  const source = await fs.readFile(file, 'utf8');
  const out = ts.transpileModule(source, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  const diag = out.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (diag) {
    const pos = diag.file && diag.start !== undefined ? diag.file.getLineAndCharacterOfPosition(diag.start) : undefined;
    const text = ts.flattenDiagnosticMessageText(diag.messageText, ' ');
    throw new ConfigError({
      file,
      line: pos ? pos.line + 1 : undefined,
      col: pos ? pos.character + 1 : undefined,
      message: `TypeScript syntax error: ${text}`,
    });
  }
  const temp = `${file}.timestamp-${Date.now()}-${Math.random().toString(16).slice(2, 10)}.mjs`;
  await fs.writeFile(temp, out.outputText);
  return temp;
}

type TypeScriptModule = typeof import('typescript');

async function loadTypeScript(file: string, from: readonly string[]): Promise<TypeScriptModule> {
  for (const base of from) {
    let resolved: string;
    try {
      resolved = createRequire(base).resolve('typescript');
    } catch {
      continue;
    }
    const mod = (await import(pathToFileURL(resolved).href)) as { default?: TypeScriptModule } & TypeScriptModule;
    return mod.default ?? mod;
  }
  throw new ConfigError({
    file,
    message:
      'a TypeScript config needs the "typescript" package to be loaded, and it is not installed here; install it (npm i -D typescript) or name the file crash-drill.config.mjs (or .js) and write it in JavaScript',
  });
}
