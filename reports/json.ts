import { writeChunksAtomic, writeTextAtomic } from './write-atomic.js';
import { join } from 'node:path';
import type { Reporter, RunResults } from './types.js';

/** Writes `<out>/results.json` atomically (a temp file, then rename): never half a file. */
export class JsonReporter implements Reporter {
  name = 'json';
  constructor(private readonly outDir: string) {}

  onRunEnd(results: RunResults): void {
    writeChunksAtomic(join(this.outDir, 'results.json'), resultsJsonChunks(results));
  }
}

/**
 * `JSON.stringify(results, null, 2)` and a newline, byte for byte, a drill at a time: the run's
 * drills are never one string in memory.
 */
export function* resultsJsonChunks(results: RunResults): Generator<string> {
  const entries = Object.entries(results).filter(([, value]) => value !== undefined && typeof value !== 'function');
  yield '{';
  for (const [i, [key, value]] of entries.entries()) {
    yield `${i === 0 ? '' : ','}\n  ${JSON.stringify(key)}: `;
    if (key === 'drills' && Array.isArray(value) && value.length > 0) {
      yield '[';
      for (const [j, drill] of value.entries()) yield `${j === 0 ? '' : ','}\n    ${JSON.stringify(drill, null, 2).replace(/\n/g, '\n    ')}`;
      yield '\n  ]';
    } else {
      yield JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
    }
  }
  yield entries.length > 0 ? '\n}\n' : '}\n';
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeTextAtomic(file, JSON.stringify(value, null, 2) + '\n');
}

export function create(options: { outDir: string }): JsonReporter {
  return new JsonReporter(options.outDir);
}
