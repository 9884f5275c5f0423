import { cpSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadReporters } from '../../reports/load-reporters.js';
import type { RunResults } from '../results/types.js';
import { commandExit, EXIT, UsageError } from '../util/errors.js';

export interface ReportCommandOptions {
  reporter?: string[];
  out?: string;
}

export class ReportInputError extends UsageError {
  override readonly code = 'CRASH_DRILL_REPORT_INPUT';
}

type Out = { write(s: string): unknown; isTTY?: boolean };

/** The saved results of a report folder, with the fields every reporter relies on checked. */
export function readResults(folder: string): RunResults {
  const file = join(folder, 'results.json');
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new ReportInputError(`${folder}: not a folder`);
  if (!existsSync(file)) throw new ReportInputError(`${folder}: no results.json (is this a report folder written by crash-drill run?)`);
  let results: RunResults;
  try {
    results = JSON.parse(readFileSync(file, 'utf8')) as RunResults;
  } catch (error) {
    throw new ReportInputError(`${file}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (results?.version !== 1 || !Array.isArray(results.drills) || typeof results.summary !== 'object') {
    throw new ReportInputError(`${file}: not a results.json of version 1 (expected version, summary and drills)`);
  }
  return results;
}

/**
 * `crash-drill report <folder>`: renders the reports again from results.json with the same hooks
 * minus the live ones; with --out the evidence is copied so it still verifies. Exit 3 on a bad
 * folder or reporter name.
 */
export async function reportCommand(folder: string, options: ReportCommandOptions, out: Out = process.stdout, err: Out = process.stderr): Promise<number> {
  return commandExit(err, 'report', async () => {
    const source = resolve(folder);
    const results = readResults(source);
    const outDir = resolve(options.out ?? source);
    const reporters = await loadReporters(options.reporter ?? [], { outDir, stdout: out, env: process.env });
    const evidence = join(source, 'evidence');
    if (outDir !== source && existsSync(evidence)) cpSync(evidence, join(outDir, 'evidence'), { recursive: true });
    const total = results.drills.length;
    for (const r of reporters) await r.onRunStart?.({ runId: results.runId, total, concurrency: 1, outDir });
    results.drills.forEach((drill, index) => {
      for (const r of reporters) r.onDrillEnd?.(drill, { done: index + 1, total });
    });
    for (const r of reporters) await r.onRunEnd?.(results);
    return EXIT.ok;
  });
}
