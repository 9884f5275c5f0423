/**
 * The HTML reporter: at run end, `<out>/report.html`, one self-contained file (inline CSS and
 * script, nothing fetched). Each drill's timeline is drawn from its evidence log in
 * `<out>/evidence/`, read here (a reporter sees results and evidence, never processes).
 */
import { writeTextAtomic } from './write-atomic.js';
import { basename, join } from 'node:path';
import { readEvidence, type EvidenceRead } from './html/evidence-file.js';
import { renderPage } from './html/page.js';
import type { ReporterOptions } from './registry.js';
import type { Reporter, RunResults } from './types.js';

export class HtmlReporter implements Reporter {
  name = 'html';
  constructor(private readonly outDir: string) {}

  /** The report's path. */
  get file(): string {
    return join(this.outDir, 'report.html');
  }

  onRunEnd(results: RunResults): void {
    const evidence = new Map<string, EvidenceRead | { error: string } | null>();
    for (const drill of results.drills) {
      evidence.set(drill.id, drill.evidence ? readEvidence(join(this.outDir, 'evidence', basename(drill.evidence.file)), drill.evidence.head) : null);
    }
    writeTextAtomic(this.file, renderPage(results, evidence));
  }
}

export function create(options: ReporterOptions): HtmlReporter {
  return new HtmlReporter(options.outDir);
}
