/**
 * A vitest reporter that ends the run with what was skipped and why. A test group that needs
 * an optional system service (a container engine, a delegated cgroup) skips when it is absent;
 * the reason is the `[skip] <file>: <why>` line the file prints, or the note of
 * `ctx.skip(note)`. The list comes last, so a skip cannot hide in the middle of the output.
 */
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

export default class SkippedReporter implements Reporter {
  private readonly reasons: string[] = [];

  onUserConsoleLog(log: UserConsoleLog): void {
    for (const line of log.content.split('\n')) if (line.startsWith('[skip] ')) this.reasons.push(line.slice('[skip] '.length).trim());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const module of modules) {
      const file = module.relativeModuleId;
      const skipped = [...module.children.allTests()].filter((t) => t.result().state === 'skipped' && t.options.mode !== 'todo');
      if (skipped.length === 0) continue;
      const notes = [...new Set(skipped.map((t) => t.result()).flatMap((r) => (r.state === 'skipped' && r.note ? [r.note] : [])))];
      const printed = [...new Set(this.reasons.filter((r) => r.startsWith(`${file}:`)).map((r) => r.slice(file.length + 1).trim()))];
      const why = [...printed, ...notes];
      lines.push(`  ${file}: ${skipped.length} skipped: ${why.length > 0 ? why.join('; ') : 'the file printed no reason'}`);
    }
    if (lines.length === 0) return;
    process.stdout.write(`\nSkipped tests, and why:\n${lines.join('\n')}\n`);
  }
}
