/**
 * A cleanup expectation: what a server's team states its server does when its client goes away,
 * one statement a line, each something a drill can show. Declared in a scenario (for every
 * subject it drills, or on one subject), judged per server from the run's drills, and carried in
 * results.json's `expectation` section (harness/expectation/judge.ts).
 */
import type { CheckId } from '../checks/index.js';
import type { KillMode, KillPoint } from '../config/types.js';

/** The statements a drill can show, in the order reports list them. */
export const STATEMENT_IDS = [
  'stops-accepting-calls',
  'exits-within',
  'leaves-no-helper',
  'no-write-after-loss',
  'writes-carry-key-and-session',
  'remote-jobs-settle',
  'authority-gone-at-revocation',
  'cancel-honoured',
] as const;

export type StatementId = (typeof STATEMENT_IDS)[number];

/** Each statement as a row label of the side-by-side table (a server's own sentence is its `text`). */
export const STATEMENT_LABELS: Readonly<Record<StatementId, string>> = {
  'stops-accepting-calls': 'stops accepting calls after its input closes',
  'exits-within': 'exits within N ms after its input closes',
  'leaves-no-helper': 'leaves no helper process behind',
  'no-write-after-loss': 'no new external write after losing its client',
  'writes-carry-key-and-session': 'every external write carries a key and its session',
  'remote-jobs-settle': 'remote jobs settle',
  'authority-gone-at-revocation': 'authority gone at revocation',
  'cancel-honoured': 'cancel honoured',
};

/** One statement as a scenario declares it, normalised: `exits-within` always carries its ms. */
export interface DeclaredStatement {
  id: StatementId;
  /** exits-within: the ms after the loss of its client by which the server has exited. */
  ms?: number;
}

export type StatementStatus = 'met' | 'not met' | 'not shown';

/** Where a statement that no drill showed would be shown: the points and modes, and what else the scenario needs. */
export interface WouldShow {
  /** 'any': every kill point can show it. */
  points: KillPoint[] | 'any';
  modes: KillMode[];
  /** The drill remote must be in the server's path (a `remote:` section). */
  remote: boolean;
  /** The same, as one line a person reads. */
  text: string;
}

export interface StatementResult {
  statement: StatementId;
  ms?: number;
  /** The statement as a sentence: "exits within 2000 ms after its input closes". */
  text: string;
  status: StatementStatus;
  /** The checks whose results decide it. */
  checks: CheckId[];
  /** Drill keys that decide it: for `not met` the ones that showed it not met, for `met` the ones that showed it met. */
  drills: string[];
  /** Drill keys where a deciding check applied but could not tell. */
  couldNotTell?: string[];
  /** For `not shown`: which point or mode would show it. */
  wouldShow?: WouldShow;
  /** A `not met` statement the baseline lists: it does not fail the run. */
  known?: { reason: string };
}

/** One server's expectation: a subject as its drills name it. */
export interface ServerExpectation {
  server: string;
  command: string;
  args: string[];
  statements: StatementResult[];
}

/** results.json `expectation`: every server that declared one, in the order the run met them. */
export interface ExpectationResults {
  servers: ServerExpectation[];
  /** Statements not met that no baseline lists: each one fails the run (exit 1). */
  notMet: number;
  /** Statements not met that the baseline lists. Absent without a baseline. */
  known?: number;
}

/** A baseline file's statement entry: a server's statement known not to be met yet. */
export interface BaselineStatementInfo {
  server: string;
  statement: StatementId;
  reason: string;
}

/** Declared statements per server, as the run planned them (the input of judge.ts). */
export interface DeclaredExpectation {
  server: string;
  command: string;
  args: string[];
  statements: DeclaredStatement[];
}
