/**
 * A vitest reporter that ends the run with what was skipped and why. A test group that needs
 * an optional system service (a container engine, a delegated cgroup, an unprivileged user)
 * skips when it is absent; the reason is a line the file prints that says "skip" (for example
 * `[skip] <file>: <why>`), or the note of `ctx.skip(note)`. The list comes last, so a skip
 * cannot hide in the middle of the output.
 */
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

export default class SkippedReporter implements Reporter {
  private readonly logs: Array<{ taskId: string; line: string }> = [];

  onUserConsoleLog(log: UserConsoleLog): void {
    if (!log.taskId) return;
    for (const line of log.content.split('\n')) if (/skip/i.test(line)) this.logs.push({ taskId: log.taskId, line: line.trim() });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const module of modules) {
      const file = module.relativeModuleId;
      const skipped = [...module.children.allTests()].filter((t) => t.result().state === 'skipped' && t.options.mode !== 'todo');
      if (skipped.length === 0) continue;
      const notes = skipped.map((t) => t.result()).flatMap((r) => (r.state === 'skipped' && r.note ? [r.note] : []));
      // A test's task id starts with its file's: the lines printed while the file loaded or ran.
      const printed = this.logs
        .filter((l) => l.taskId.startsWith(module.id))
        .map((l) =>
          l.line
            .replace(/^\[[^\]]*\]\s*/, '')
            .replace(`${file}: `, '')
            .replace(/^skipped:\s*/i, ''),
        );
      const why = [...new Set([...printed, ...notes])];
      lines.push(`  ${file}: ${skipped.length} skipped: ${why.length > 0 ? why.join('; ') : 'the file printed no reason'}`);
    }
    if (lines.length === 0) return;
    process.stdout.write(`\nSkipped tests, and why:\n${lines.join('\n')}\n`);
  }
}
