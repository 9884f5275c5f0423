import { writeTextAtomic } from './write-atomic.js';
import { join } from 'node:path';
import type { Reporter, RunResults } from './types.js';

/** Writes `<out>/results.json` atomically (a temp file, then rename): never half a file. */
export class JsonReporter implements Reporter {
  name = 'json';
  constructor(private readonly outDir: string) {}

  onRunEnd(results: RunResults): void {
    writeJsonAtomic(join(this.outDir, 'results.json'), results);
  }
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeTextAtomic(file, JSON.stringify(value, null, 2) + '\n');
}

export function create(options: { outDir: string }): JsonReporter {
  return new JsonReporter(options.outDir);
}
