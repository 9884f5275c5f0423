/**
 * vitest matchers (`expect.extend(crashDrillMatchers)` from 'mcp-crash-drill/vitest', then
 * `expect(drill).toExitOnEof()`): one per registered check (harness/checks/all-checks.ts), passing
 * when it passed; a failure shows the summary, findings, survivors, follow-up and evidence log.
 */
import { CHECKS } from '../checks/all-checks.js';
import type { Check } from '../checks/types.js';
import type { DrillResult } from '../results/types.js';

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

type Matcher = (this: { isNot?: boolean }, received: unknown) => MatcherResult;

function checkMatcher(check: Check): Matcher {
  const { id } = check;
  const what = check.matcher.expects;
  return function (this: { isNot?: boolean }, received: unknown): MatcherResult {
    const drill = received as DrillResult;
    if (!drill || !Array.isArray(drill.checks)) {
      return { pass: false, message: () => `expected a DrillResult (from runDrills), got ${typeof received}` };
    }
    const name = `${drill.scenario} ${drill.point}/${drill.mode}`;
    const outcome = drill.checks.find((c) => c.id === id);
    if (!outcome) {
      return { pass: false, message: () => `${name}: the check ${id} did not apply to this drill (verdict ${drill.verdict}: ${drill.reason})` };
    }
    return {
      pass: outcome.verdict === 'pass',
      message: () =>
        this.isNot
          ? `${name}: expected the server not to ${what}, but ${id} passed: ${outcome.summary}`
          : [`${name}: expected the server to ${what}; ${id} is ${outcome.verdict}: ${outcome.summary}`, ...evidenceLines(drill, id)].join('\n'),
    };
  };
}

/** What the drill shows of a check: its findings, the drill's survivors, the follow-up, the log. */
function evidenceLines(drill: DrillResult, id: string): string[] {
  const lines: string[] = [];
  for (const finding of drill.incident?.findings ?? []) {
    if (finding.check === id) for (const item of finding.items) lines.push(`  ${finding.label}: ${item}`);
  }
  for (const s of drill.survivors ?? []) lines.push(`  survivor pid ${s.pid} (ppid ${s.ppid}, found by ${s.foundBy.join('+')}): ${s.cmdline.join(' ')}`);
  for (const f of drill.incident?.followUp ?? []) lines.push(`  follow-up: ${f}`);
  if (drill.evidence) lines.push(`  evidence: ${drill.evidence.file} (head ${drill.evidence.head.slice(0, 12)})`);
  return lines;
}

type Registered = (typeof CHECKS)[number];

/** Every check's matcher name: `toExitOnEof`, `toLeaveNoSurvivors`, ... */
export type CrashDrillMatcherName = Registered['matcher']['name'];

/** The matchers, for `declare module 'vitest' { interface Assertion<T> extends CrashDrillMatchers<T> {} }`. */
export type CrashDrillMatchers<R = unknown> = { [Name in CrashDrillMatcherName]: () => R };

export const crashDrillMatchers = Object.fromEntries((CHECKS as readonly Check[]).map((check) => [check.matcher.name, checkMatcher(check)])) as Record<
  CrashDrillMatcherName,
  Matcher
>;
