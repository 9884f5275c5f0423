/**
 * `<out>/report.html`, one self-contained file. Past INLINE_DRILLS it would be too large for a
 * browser, so each drill's body goes to `<out>/report-drills/<drill>.js`, loaded when opened (works from file://).
 */
export const INLINE_DRILLS = 500;

const DRILLS_DIR = 'report-drills';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeChunksAtomic, writeTextAtomic } from '../write-atomic.js';
import { basename, join } from 'node:path';
import { drillBody, renderDrillStub } from './drill-section.js';
import { anchorOf } from './escape.js';
import { readEvidence, type EvidenceRead } from './evidence-file.js';
import { drillLine, pageChunks, renderPage } from './page.js';
import type { DrillLine } from './types.js';
import type { DrillResult } from '../types.js';
import type { ReporterOptions } from '../types.js';
import type { Reporter, RunReport } from '../types.js';

export class HtmlReporter implements Reporter {
  name = 'html';
  constructor(private readonly outDir: string) {}

  /** The report's path. */
  get file(): string {
    return join(this.outDir, 'report.html');
  }

  onRunEnd(results: RunReport): void {
    const dir = join(this.outDir, DRILLS_DIR);
    rmSync(dir, { recursive: true, force: true });
    if (results.drills.length <= INLINE_DRILLS) {
      const drills = [...results.drills];
      const evidence = new Map<string, EvidenceRead | { error: string } | null>();
      for (const drill of drills) evidence.set(drill.id, this.read(drill));
      writeTextAtomic(this.file, renderPage({ ...results, drills }, evidence));
      return;
    }
    // A drill at a time: its body to its file, its line kept for the page.
    mkdirSync(dir, { recursive: true });
    const lines: DrillLine[] = [];
    for (const drill of results.drills) {
      const id = anchorOf(drill.id);
      writeFileSync(join(dir, `${id}.js`), `crashDrillBody(${JSON.stringify(id)},${JSON.stringify(drillBody(drill, this.read(drill)))});\n`);
      lines.push(drillLine(drill));
    }
    writeChunksAtomic(
      this.file,
      pageChunks({ ...results, drills: lines }, (d) => renderDrillStub(d, `${DRILLS_DIR}/${anchorOf(d.id)}.js`)),
    );
  }

  private read(drill: DrillResult): EvidenceRead | { error: string } | null {
    return drill.evidence ? readEvidence(join(this.outDir, 'evidence', basename(drill.evidence.file)), drill.evidence.head) : null;
  }
}

export function create(options: ReporterOptions): HtmlReporter {
  return new HtmlReporter(options.outDir);
}
