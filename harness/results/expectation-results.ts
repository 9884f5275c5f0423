/** A run's cleanup expectations as results.json carries them, judged by harness/expectation/judge.ts. Types only. */
import type { ProfileRef } from '../client-profiles/profiles.js';
import type { CheckId } from '../checks/all-checks.js';
import type { StatementId } from '../config/index.js';
import type { KillMode, KillPoint } from '../config/index.js';

export type StatementStatus = 'met' | 'not met' | 'not shown';

/** Where a statement that no drill showed would be shown: the points and modes, and what else the scenario needs. */
export interface WouldShow {
  /** 'any': every kill point can show it. */
  points: KillPoint[] | 'any';
  modes: KillMode[];
  /** The drill remote must be in the server's path (a `remote:` section). */
  remote: boolean;
  text: string;
}

export interface StatementResult {
  statement: StatementId;
  ms?: number;
  text: string;
  status: StatementStatus;
  checks: CheckId[];
  /** Drill keys that decide it: for `not met` the ones that showed it not met, for `met` the ones that showed it met. */
  drills: string[];
  couldNotTell?: string[];
  /** For `not shown`: which point or mode would show it. */
  wouldShow?: WouldShow;
  /** A `not met` statement the baseline lists: it does not fail the run. */
  known?: { reason: string };
  /** The statement per client profile drilled, present with several profiles or a non-default one; not met under any is not met. */
  profiles?: ProfileStatement[];
}

export interface ProfileStatement {
  profile: ProfileRef;
  /** The range of the client's versions drilled (`>=0.52`). */
  versions?: string;
  status: StatementStatus;
  drills: string[];
  /** Not met under this profile, and the baseline lists it (for this profile, or for every profile). */
  known?: { reason: string };
}

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
  known?: number;
}

/** A baseline file's statement entry: a server's statement known not to be met yet (under one client profile, or under all). */
export interface BaselineStatementInfo {
  server: string;
  statement: StatementId;
  /** Only under this client profile; absent: under every profile. */
  profile?: ProfileRef;
  reason: string;
}
