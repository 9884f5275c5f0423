/**
 * A cleanup expectation: what a server's team states it does when its client goes away, a
 * statement a line, declared in a scenario and judged per server (harness/expectation/judge.ts).
 */
import type { DeclaredStatement } from '../config/index.js';

/** Declared statements per server, as the run planned them (the input of judge.ts). */
export interface DeclaredExpectation {
  server: string;
  command: string;
  args: string[];
  statements: DeclaredStatement[];
}
