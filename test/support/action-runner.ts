/**
 * Runs a composite action's `run:` steps as a GitHub runner would
 * (https://docs.github.com/en/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions):
 * each step with `shell: bash` as `bash --noprofile --norc -eo pipefail <script>`, in its
 * `working-directory` below the workspace, with the step's `env`, GITHUB_ACTIONS=true, a fresh
 * GITHUB_OUTPUT file a step (its `key=value` lines become `steps.<id>.outputs`) and the job's one
 * GITHUB_STEP_SUMMARY. A `uses:` step is not run; it is recorded with its `with:` values. The
 * steps stop at the first that fails, as a job's do. Expressions: exactly the forms
 * `${{ inputs.<name> }}`, `${{ steps.<id>.outputs.<name> }}` and `${{ github.action_path }}`;
 * anything else throws, so the action cannot come to rely on an expression this runner fakes.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { collect } from './cli.js';
import { tempDir } from './temp-dir.js';

interface ActionStep {
  name?: string;
  id?: string;
  shell?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}

interface ActionFile {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRun {
  name: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ActionRun {
  steps: StepRun[];
  /** The `uses:` steps met, with their `with:` values evaluated. */
  uses: Array<{ uses: string; with: Record<string, string> }>;
  outputs: Record<string, Record<string, string>>;
  /** The job's step summary, as GITHUB_STEP_SUMMARY holds it at the end. */
  summary: string;
  /** The exit code of the last step run: the job's result. */
  code: number | null;
}

const EXPRESSION = /\$\{\{\s*([^}]*?)\s*\}\}/g;

function evaluate(text: string, ctx: { inputs: Record<string, string>; outputs: ActionRun['outputs']; actionPath: string }): string {
  return text.replace(EXPRESSION, (_, expr: string) => {
    let m = /^inputs\.([\w-]+)$/.exec(expr);
    if (m) return ctx.inputs[m[1]] ?? '';
    m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (m) return ctx.outputs[m[1]]?.[m[2]] ?? '';
    if (expr === 'github.action_path') return ctx.actionPath;
    throw new Error(`the test's action runner does not know the expression \${{ ${expr} }}`);
  });
}

function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

export async function runAction(actionPath: string, workspace: string, given: Record<string, string>, env: NodeJS.ProcessEnv = {}): Promise<ActionRun> {
  const action = parse(readFileSync(join(actionPath, 'action.yml'), 'utf8')) as ActionFile;
  if (action.runs.using !== 'composite') throw new Error(`expected a composite action, got ${action.runs.using}`);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) inputs[name] = given[name] ?? spec.default ?? '';
  for (const name of Object.keys(given)) if (!(name in action.inputs)) throw new Error(`action.yml has no input ${name}`);
  const files = tempDir('crash-drill-runner-');
  const summary = join(files, 'step-summary.md');
  writeFileSync(summary, '');
  const result: ActionRun = { steps: [], uses: [], outputs: {}, summary: '', code: 0 };
  const ctx = { inputs, outputs: result.outputs, actionPath };
  for (const [i, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.id ?? `step ${i + 1}`;
    if (step.uses) {
      result.uses.push({ uses: step.uses, with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluate(String(v), ctx)])) });
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`step "${name}": the runner here runs shell: bash only, got ${step.shell}`);
    const output = join(files, `output-${i}`);
    const script = join(files, `step-${i}.sh`);
    writeFileSync(output, '');
    writeFileSync(script, step.run ?? '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v), ctx)]));
    const cwd = join(workspace, evaluate(step['working-directory'] ?? '.', ctx));
    const run = await collect(
      spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        cwd,
        env: {
          ...process.env,
          NO_COLOR: '1',
          ...env,
          ...stepEnv,
          GITHUB_ACTIONS: 'true',
          GITHUB_WORKSPACE: workspace,
          GITHUB_ACTION_PATH: actionPath,
          GITHUB_OUTPUT: output,
          GITHUB_STEP_SUMMARY: summary,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    result.steps.push({ name, code: run.code, stdout: run.stdout, stderr: run.stderr });
    if (step.id) result.outputs[step.id] = parseOutputs(readFileSync(output, 'utf8'));
    result.code = run.code;
    if (run.code !== 0) break;
  }
  result.summary = readFileSync(summary, 'utf8');
  return result;
}
