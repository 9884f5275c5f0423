/**
 * The HTML reporter: at run end, `<out>/report.html`, one self-contained file (inline CSS and
 * script, nothing fetched). Each drill's timeline is drawn from its evidence log in
 * `<out>/evidence/`, read here (a reporter sees results and evidence, never processes).
 *
 * A run of more than INLINE_DRILLS drills would make that file too large for a browser to open
 * (about 15 KB a drill: 150 MB at 10,000), so then the page holds one line a drill and each
 * drill's body goes to `<out>/report-drills/<drill>.js`, which the page loads with a script tag
 * when the drill is opened (a script, not a fetch: it works from file://). The evidence logs
 * are read one at a time, so the reporter holds one drill's events at once.
 */
export const INLINE_DRILLS = 500;

const DRILLS_DIR = 'report-drills';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeChunksAtomic, writeTextAtomic } from './write-atomic.js';
import { basename, join } from 'node:path';
import { drillBody, renderDrillStub } from './html/drill-section.js';
import { anchorOf } from './html/escape.js';
import { readEvidence, type EvidenceRead } from './html/evidence-file.js';
import { drillLine, pageChunks, renderPage } from './html/page.js';
import type { DrillLine } from './html/types.js';
import type { DrillResult } from './types.js';
import type { ReporterOptions } from './types.js';
import type { Reporter, RunReport } from './types.js';

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
