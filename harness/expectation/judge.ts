/**
 * A run's cleanup expectations judged per server: `met` when some drill showed it and none showed
 * otherwise, `not met`, or `not shown` (naming what would show it). Pure, so merge and report agree.
 */
import type { Scenario, SubjectSpec } from '../config/index.js';
import type { DrillResult } from '../results/judge.js';
import { notRepeatedCopies } from '../results/constants.js';
import type { NotRepeatedDrill } from '../results/types.js';
import { statementDef, wouldShow, type DrillSay } from './statements.js';
import type { DeclaredExpectation } from './types.js';
import { STATEMENT_IDS, type DeclaredStatement } from '../config/index.js';
import type { ExpectationResults, ProfileStatement, ServerExpectation, StatementResult } from '../results/expectation-results.js';
import { DEFAULT_PROFILE, type ProfileRef } from '../client-profiles/profiles.js';

/** A server is its subject as a drill names it: name, command and args. */
function serverKey(s: { name?: string; server?: string; command: string; args: readonly string[] }): string {
  return JSON.stringify([s.server ?? s.name, s.command, s.args]);
}

/**
 * What each server declared, as drilled: a subject's own `expectation`, else its scenario's; one
 * statement per id, the strictest exits-within where scenarios differ.
 */
export function declaredExpectations(drilled: ReadonlyArray<{ scenario: Scenario; subject?: SubjectSpec }>): DeclaredExpectation[] {
  const byServer = new Map<string, DeclaredExpectation>();
  for (const { scenario, subject = scenario.subject } of drilled) {
    const statements = subject.expectation ?? scenario.expectation ?? [];
    if (statements.length === 0) continue;
    const key = serverKey(subject);
    const entry = byServer.get(key) ?? { server: subject.name, command: subject.command, args: [...subject.args], statements: [] };
    byServer.set(key, entry);
    for (const statement of statements) {
      const had = entry.statements.find((s) => s.id === statement.id);
      if (!had) entry.statements.push({ ...statement });
      else if (statement.ms !== undefined && (had.ms === undefined || statement.ms < had.ms)) had.ms = statement.ms;
    }
  }
  for (const entry of byServer.values()) entry.statements.sort((a, b) => STATEMENT_IDS.indexOf(a.id) - STATEMENT_IDS.indexOf(b.id));
  return [...byServer.values()];
}

/**
 * Each server's statements judged on its drills; undefined when no server declared any. One pass
 * over the drills, holding only the keys each statement names: a run's drills may be on disk.
 * A drill not repeated under another client profile than the drill that ran in its place is
 * judged from that drill's result, under its own key and profile: the two got the same inputs
 * (harness/plan/profile-inputs.ts), and no statement reads the profile, so each profile's
 * statements stand on its own drills. One not repeated under the same profile adds nothing.
 */
export function judgeExpectations(
  declared: readonly DeclaredExpectation[],
  drills: Iterable<DrillResult>,
  notRepeated: readonly NotRepeatedDrill[] = [],
): ExpectationResults | undefined {
  if (declared.length === 0) return undefined;
  const tallies = declared.map((d) => ({
    key: serverKey(d),
    profiles: [] as ProfileRef[],
    versions: new Map<ProfileRef, string>(),
    statements: d.statements.map((s) => ({ statement: s, keys: emptyKeys(), byProfile: new Map<ProfileRef, Keys>() })),
  }));
  const named = new Set(notRepeated.map((n) => n.sameAs));
  const stoodFor: DrillResult[] = [];
  const judgeDrill = (drill: DrillResult) => {
    // A drill that erred did not happen as planned: its checks show nothing of the server.
    if (drill.verdict === 'error') return;
    const key = serverKey(drill.subject);
    const profile = drill.clientProfile;
    for (const tally of tallies) {
      if (tally.key !== key) continue;
      if (!tally.profiles.includes(profile)) tally.profiles.push(profile);
      if (drill.clientVersions && !tally.versions.has(profile)) tally.versions.set(profile, drill.clientVersions);
      for (const { statement, keys, byProfile } of tally.statements) {
        const say = statementDef(statement.id).decide(drill, statement);
        if (say === null) continue;
        keys[say].add(drill.key);
        if (!byProfile.has(profile)) byProfile.set(profile, emptyKeys());
        byProfile.get(profile)![say].add(drill.key);
      }
    }
  };
  for (const drill of drills) {
    judgeDrill(drill);
    if (named.has(drill.key)) stoodFor.push(drill);
  }
  const profileOf = new Map(stoodFor.map((d) => [d.key, d.clientProfile]));
  const otherProfile = notRepeated.filter((n) => n.clientProfile !== undefined && profileOf.has(n.sameAs) && n.clientProfile !== profileOf.get(n.sameAs));
  for (const copy of notRepeatedCopies(stoodFor, otherProfile)) judgeDrill(copy);
  const servers: ServerExpectation[] = declared.map((d, i) => {
    const { profiles, versions } = tallies[i];
    // A client axis only where the run had one: a run of the default profile alone reads as it did before profiles.
    const axis = profiles.length > 1 || (profiles.length === 1 && profiles[0] !== DEFAULT_PROFILE);
    return {
      server: d.server,
      command: d.command,
      args: [...d.args],
      statements: tallies[i].statements.map(({ statement, keys, byProfile }) => ({
        ...judgeStatement(statement, keys),
        ...(axis ? { profiles: profiles.map((p) => profileStatement(p, versions.get(p), byProfile.get(p) ?? emptyKeys())) } : {}),
      })),
    };
  });
  return { servers, notMet: countNotMet(servers) };
}

/** Drill keys by what they said, in first-seen order. */
type Keys = Record<Exclude<DrillSay, null>, Set<string>>;

const emptyKeys = (): Keys => ({ met: new Set(), 'not met': new Set(), 'could not tell': new Set() });

/** Statements not met and not known to the baseline. */
export function countNotMet(servers: readonly ServerExpectation[]): number {
  return servers.reduce((n, s) => n + s.statements.filter((st) => st.status === 'not met' && !st.known).length, 0);
}

function statusOf(keys: Keys): StatementResult['status'] {
  return keys['not met'].size > 0 ? 'not met' : keys.met.size > 0 ? 'met' : 'not shown';
}

function profileStatement(profile: ProfileRef, versions: string | undefined, keys: Keys): ProfileStatement {
  const status = statusOf(keys);
  return { profile, ...(versions ? { versions } : {}), status, drills: status === 'not met' ? [...keys['not met']] : status === 'met' ? [...keys.met] : [] };
}

function judgeStatement(statement: DeclaredStatement, said: Keys): StatementResult {
  const def = statementDef(statement.id);
  const keys = { met: [...said.met], 'not met': [...said['not met']], 'could not tell': [...said['could not tell']] };
  const status = keys['not met'].length > 0 ? 'not met' : keys.met.length > 0 ? 'met' : 'not shown';
  return {
    statement: statement.id,
    ...(statement.ms !== undefined ? { ms: statement.ms } : {}),
    text: def.text(statement),
    status,
    checks: [...def.checks],
    drills: status === 'not met' ? keys['not met'] : status === 'met' ? keys.met : [],
    ...(keys['could not tell'].length > 0 ? { couldNotTell: keys['could not tell'] } : {}),
    ...(status === 'not shown' ? { wouldShow: wouldShow(def) } : {}),
  };
}
