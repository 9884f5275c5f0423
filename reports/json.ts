import { writeChunksAtomic, writeTextAtomic } from './write-atomic.js';
import { join } from 'node:path';
import type { Reporter, RunReport } from './types.js';

/** Writes `<out>/results.json` atomically (a temp file, then rename): never half a file. */
export class JsonReporter implements Reporter {
  name = 'json';
  constructor(private readonly outDir: string) {}

  onRunEnd(results: RunReport): void {
    writeChunksAtomic(join(this.outDir, 'results.json'), resultsJsonChunks(results));
  }
}

/**
 * `JSON.stringify(results, null, 2)` and a newline, byte for byte, a drill at a time: the run's
 * drills are never one string in memory.
 */
export function* resultsJsonChunks(results: RunReport): Generator<string> {
  const entries = Object.entries(results).filter(([, value]) => value !== undefined && typeof value !== 'function');
  yield '{';
  for (const [i, [key, value]] of entries.entries()) {
    yield `${i === 0 ? '' : ','}\n  ${JSON.stringify(key)}: `;
    if (key === 'drills') {
      // Read one at a time: in a CLI run the drills are on disk (harness/results/drill-spool.ts).
      let j = 0;
      for (const drill of results.drills) yield `${j++ === 0 ? '[' : ','}\n    ${JSON.stringify(drill, null, 2).replace(/\n/g, '\n    ')}`;
      yield j === 0 ? '[]' : '\n  ]';
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
