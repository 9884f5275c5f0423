/**
 * Applying a baseline: a failed check listed for its drill is known and does not fail the run; a
 * drill whose every failure is known gets `known` (or `unknown` if some check could not tell).
 * `unknown` and `error` are never absorbed. A listed entry that passes is stale and fails the run.
 * An entry of a drill left out as not repeated (harness/plan/not-repeated.ts) counts for the
 * drill that ran in its place.
 */
import type { CheckResult } from '../checks/all-checks.js';
import type { BaselineEntryInfo, DrillResult, NotRepeatedDrill } from '../results/types.js';
import { entryKey, type Baseline } from './load.js';

export class BaselineIndex {
  private readonly byKey = new Map<string, BaselineEntryInfo>();
  /** A drill that ran -> the keys of the drills left out as the same drill. */
  private readonly standIns = new Map<string, string[]>();
  /** A drill left out -> the drill that ran in its place. */
  private readonly ranAs: ReadonlyMap<string, string>;

  constructor(
    readonly baseline: Baseline,
    notRepeated: readonly NotRepeatedDrill[] = [],
  ) {
    for (const entry of baseline.entries) this.byKey.set(entryKey(entry), entry);
    this.ranAs = ranAsMap(notRepeated);
    for (const { key, sameAs } of notRepeated) this.standIns.set(sameAs, [...(this.standIns.get(sameAs) ?? []), key]);
  }

  /** The entry that absorbs this failed check, if any: the drill's own, else one of a drill left out as the same drill. */
  knownFailure(drillKey: string, check: CheckResult): BaselineEntryInfo | undefined {
    if (check.verdict !== 'fail') return undefined;
    for (const key of [drillKey, ...(this.standIns.get(drillKey) ?? [])]) {
      const entry = this.byKey.get(entryKey({ drill: key, check: check.id }));
      if (entry?.verdict === 'fail') return entry;
    }
    return undefined;
  }

  /** Marks the drill's known failures and sets its verdict, in place (every reporter gets this object next). */
  apply(drill: DrillResult): DrillResult {
    if (drill.verdict !== 'fail') return drill;
    const known = drill.checks.flatMap((check) => {
      const entry = this.knownFailure(drill.key, check);
      return entry ? [{ check: check.id, reason: entry.reason }] : [];
    });
    if (known.length === 0) return drill;
    drill.known = known;
    const newFailures = drill.checks.filter((c) => c.verdict === 'fail' && !known.some((k) => k.check === c.id));
    if (newFailures.length > 0) return drill;
    const unknown = drill.checks.filter((c) => c.verdict === 'unknown');
    if (unknown.length > 0) {
      drill.verdict = 'unknown';
      drill.reason = unknown.map((c) => `${c.id}: ${c.summary}`).join(' | ');
    } else {
      drill.verdict = 'known';
      drill.reason = `known (baseline): ${drill.reason}`;
    }
    return drill;
  }

  /**
   * Listed entries that now pass, among drills that ran: a check entry when its check passed or did
   * not apply in every attempt that did not err; a drill entry when every attempt passed.
   */
  stale(drills: Iterable<DrillResult>): BaselineEntryInfo[] {
    const ranAs = (key: string) => this.ranAs.get(key) ?? key;
    // Only the drills the file names are kept: a run's drills may be on disk (harness/results/drill-spool.ts).
    const listed = new Set(this.baseline.entries.map((e) => ranAs(e.drill)));
    const attempts = new Map<string, DrillResult[]>();
    for (const d of drills) if (listed.has(d.key)) attempts.set(d.key, [...(attempts.get(d.key) ?? []), d]);
    return this.baseline.entries.filter((entry) => {
      const ran = attempts.get(ranAs(entry.drill));
      if (!ran) return false;
      if (entry.check === null) return ran.every((d) => d.verdict === 'pass');
      return ran.every((d) => d.verdict !== 'error' && (d.checks.find((c) => c.id === entry.check)?.verdict ?? 'pass') === 'pass');
    });
  }
}

/** A drill left out -> the drill that ran in its place. */
export function ranAsMap(notRepeated: readonly NotRepeatedDrill[] = []): ReadonlyMap<string, string> {
  return new Map(notRepeated.map(({ key, sameAs }) => [key, sameAs]));
}
