import type { Requirement } from '../requirements/requirement.js';
import type { DrillEvidence } from '../evidence/types.js';
import type { KillMode } from '../config/index.js';

export type CheckVerdict = 'pass' | 'fail' | 'unknown';
export type Verdict = CheckVerdict | 'error';

/** The data of a check that could not judge (or judged nothing): written as `{}` in results.json. */
export type NoData = Record<string, never>;

/** What a check judged: its verdict, one line a person can act on, and its typed data. */
export interface Judgement<D extends object = object> {
  verdict: CheckVerdict;
  summary: string;
  data: D | NoData;
}

/** A check's result in a drill: its judgement under its id (the id is added by defineCheck, named once). */
export interface CheckOutcome<Id extends string = string, D extends object = object> extends Judgement<D> {
  id: Id;
}

/** A labelled list reporters print under a failed check; reporters never read a check's `data`. */
export interface CheckDetail {
  label: string;
  items: string[];
}

/** A failed check's detail as the incident record carries it: which check found it. */
export interface CheckFinding<Id extends string = string> extends CheckDetail {
  check: Id;
}

/** Why a failed check failed and the fix, from its `diagnose` (harness/results/diagnosis.ts). */
export interface Cause {
  /** One line: the cause, as the drill observed it. */
  cause: string;
  /** What was observed that shows it, one fact a line. */
  observed: string[];
  /** The server's SDK's known behaviour that bears on it, with its public issue; null when none. */
  sdk: string | null;
  /** The change that fixes this case. */
  fix: string;
}

/** A check's vitest matcher (harness/vitest/matchers.ts); a failure reads "expected the server to <expects>". */
export interface CheckMatcher<Name extends string = string> {
  name: Name;
  expects: string;
}

/** `exit-on-eof` -> `ExitOnEof`. */
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>;

/** The matcher of a check that names none: `toPass` and its id, `toPassExitOnEof`. */
export type DefaultMatcherName<Id extends string> = `toPass${Pascal<Id>}`;

/** A check as its folder declares it; register it in harness/checks/all-checks.ts, nothing else switches on ids. */
export interface CheckSpec<Id extends string, D extends object, M extends string> {
  id: Id;
  /** What it tests and where that comes from: the spec, the conformance suite, or practice (harness/requirements/). */
  requirement: Requirement;
  /** Its vitest matcher; without one it is `toPass<Id>` ("pass <id>"). */
  matcher?: CheckMatcher<M>;
  /** Whether the check is configured for this drill and can apply to its mode at all. */
  applies(evidence: DrillEvidence, mode: KillMode): boolean;
  /** It can judge a drill whose client is never lost (a cancel drill without a kill). */
  withoutLoss?: boolean;
  run(evidence: DrillEvidence): Judgement<D>;
  /** What someone has to do now, when the check failed: its part of the incident record's follow-up. */
  followUp?(outcome: CheckOutcome<Id, D>, evidence: DrillEvidence): string[];
  /** What the failed check found, for the reports, the incident record's findings and the matcher's message. */
  details?(outcome: CheckOutcome<Id, D>, evidence: DrillEvidence): CheckDetail[];
  /** Why it failed and the fix, from the evidence alone; null when it cannot say; several causes for several findings. */
  diagnose?(outcome: CheckOutcome<Id, D>, evidence: DrillEvidence): Cause | Cause[] | null;
}

/** A registered check: its spec, with `run` giving the outcome under its id and the matcher filled in. */
export interface Check<Id extends string = string, D extends object = object, M extends string = string> extends Omit<CheckSpec<Id, D, M>, 'run' | 'matcher'> {
  run(evidence: DrillEvidence): CheckOutcome<Id, D>;
  matcher: CheckMatcher<M>;
}

/** Declares a check with its id, data and matcher name inferred, so the list of checks (all-checks.ts) knows all three. */
export function defineCheck<Id extends string, D extends object, M extends string = DefaultMatcherName<Id>>(spec: CheckSpec<Id, D, M>): Check<Id, D, M> {
  const { run, matcher, ...rest } = spec;
  const pascal = spec.id.replace(/(^|-)([a-z])/g, (_m, _dash, c: string) => c.toUpperCase());
  return {
    ...rest,
    matcher: matcher ?? { name: `toPass${pascal}` as M, expects: `pass ${spec.id}` },
    run: (evidence) => ({ id: spec.id, ...run(evidence) }),
  };
}

/** The data of an outcome when the check wrote its own (not the NoData of an early `unknown`). */
export function dataOf<D extends object>(outcome: CheckOutcome<string, D>): Partial<D> {
  return outcome.data as Partial<D>;
}
