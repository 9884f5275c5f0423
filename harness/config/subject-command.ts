/**
 * Early refusal: each subject's command is resolved as the drill client's spawn will
 * (harness/shared/spawn-subject.ts), so a missing program is one ConfigError, not one per drill;
 * a path that depends on a per-drill value is left to the drill.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type ConfigProblem } from './errors.js';
import { renderScenario } from './templates.js';
import type { Scenario, SubjectSpec } from './types.js';

/** Stands in for every per-drill template value; never part of a real path. */
const PER_DRILL = '\u0000per-drill\u0000';

/** Where a subject came from, for the error: the scenario file and field, or a flag. */
export interface SubjectOrigin {
  file?: string;
  field: string;
  cwdField: string;
}

export type Resolution =
  | { ok: true; path: string }
  /** Depends on a value that exists only per drill: left to the drill. */
  | { ok: 'per-drill' }
  | { ok: false; cwd?: true; message: string };

/** Resolves one command as spawn would: `env` is the environment the server gets (PATH from it), `cwd` its working folder (both with per-drill values as PER_DRILL). */
export function resolveCommand(command: string, cwd: string, envPath: string | undefined): Resolution {
  if (command === '') return { ok: false, message: 'expected a program to run, got an empty command' };
  if (!cwd.includes(PER_DRILL)) {
    const folder = kindOf(cwd);
    if (folder !== 'dir')
      return {
        ok: false,
        cwd: true,
        message: `expected a folder to run the server in, got "${cwd}": ${folder === 'missing' ? 'no such folder' : 'not a folder'}`,
      };
  }
  if (command.includes('/')) {
    if (!path.isAbsolute(command) && cwd.includes(PER_DRILL)) return { ok: 'per-drill' };
    const file = path.resolve(cwd, command);
    const why = notRunnable(file);
    return why
      ? { ok: false, message: `expected a program that can be run, got "${command}"${file !== command ? ` (${file})` : ''}: ${why}` }
      : { ok: true, path: file };
  }
  // A bare name: every PATH entry in order, as execvp does; an empty entry is the working folder.
  const entries = (envPath ?? '').split(path.delimiter);
  let perDrill = false;
  let notExecutable: string | null = null;
  for (const entry of entries) {
    const dir = path.resolve(cwd, entry === '' ? '.' : entry);
    if (dir.includes(PER_DRILL)) {
      perDrill = true;
      continue;
    }
    const file = path.join(dir, command);
    const why = notRunnable(file);
    if (!why) return { ok: true, path: file };
    if (why === 'not executable') notExecutable ??= file;
  }
  if (perDrill) return { ok: 'per-drill' };
  if (notExecutable) return { ok: false, message: `expected a program that can be run, got "${command}": ${notExecutable} is not executable` };
  const searched = entries.filter((e) => e !== '').length;
  return {
    ok: false,
    message: `expected a program that can be run, got "${command}": not found on PATH (${searched} folder${searched === 1 ? '' : 's'} searched)`,
  };
}

/** Every subject of every scenario, resolved; one ConfigError lists each command that cannot run. */
export function refuseUnrunnableSubjects(
  scenarios: readonly Scenario[],
  originOf: (scenario: Scenario, index: number) => SubjectOrigin,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  for (const scenario of scenarios) {
    const subjects = scenario.subjects?.length ? scenario.subjects : [scenario.subject];
    subjects.forEach((subject, i) => {
      const origin = originOf(scenario, i);
      const rendered = renderedSubject(scenario, subject);
      if (!rendered) return;
      // The drill client gives the server PATH from its own environment unless the subject sets one.
      const result = resolveCommand(subject.command, rendered.cwd, rendered.env.PATH ?? env.PATH);
      if (result.ok !== false) return;
      const field = result.cwd ? origin.cwdField : origin.field;
      const key = `${origin.file ?? ''}\u0000${field}\u0000${result.message}`;
      if (seen.has(key)) return;
      seen.add(key);
      problems.push({ file: origin.file, field, message: `${result.message}; nothing was started` });
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
}

/** The subject's cwd and env with templates filled in (per-drill values as placeholders). */
function renderedSubject(scenario: Scenario, subject: SubjectSpec): { cwd: string; env: Record<string, string> } | null {
  try {
    const rendered = renderScenario(
      { ...scenario, subject },
      {
        runId: PER_DRILL,
        tmp: PER_DRILL,
        scenarioDir: scenario.dir,
        remoteUrl: PER_DRILL,
        remoteApiKey: PER_DRILL,
        sessionToken: PER_DRILL,
      },
    );
    return { cwd: rendered.subject.cwd, env: rendered.subject.env };
  } catch {
    // A template that cannot render is the drill's own error, reported there.
    return null;
  }
}

function kindOf(file: string): 'file' | 'dir' | 'other' | 'missing' {
  try {
    const stat = statSync(file);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'missing';
  }
}

/** Why spawn could not run this file, or null when it can. */
function notRunnable(file: string): string | null {
  const kind = kindOf(file);
  if (kind === 'missing') return 'no such file';
  if (kind === 'dir') return 'a directory, not a program';
  if (kind === 'other') return 'not a regular file';
  try {
    accessSync(file, constants.X_OK);
    return null;
  } catch {
    return 'not executable';
  }
}
