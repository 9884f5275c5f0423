/**
 * A cleanup expectation: what a server's team states its server does when its client goes away,
 * one statement a line, each something a drill can show. Declared in a scenario (for every
 * subject it drills, or on one subject), judged per server from the run's drills, and carried in
 * results.json's `expectation` section (harness/expectation/judge.ts).
 */
import type { DeclaredStatement } from '../config/index.js';

/** Declared statements per server, as the run planned them (the input of judge.ts). */
export interface DeclaredExpectation {
  server: string;
  command: string;
  args: string[];
  statements: DeclaredStatement[];
}
