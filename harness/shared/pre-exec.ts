/** The command that gives a server what Node's spawn cannot (its own group, a parent-death signal): `perl -e <pre-exec.pl>`, which execs it. */
import { constants } from 'node:os';
import { join } from 'node:path';
import type { SignalName, SpawnFacts } from '../client-profiles/profiles.js';
import { packageRoot } from '../util/paths.js';
import { findPerl, perlFile, prctlArgument } from '../util/perl.js';

let script: string | null = null;

/** The number of a signal name, for perl's syscall; 0 for none. */
export function signalNumber(name: SignalName | null): number {
  return name === null ? 0 : constants.signals[name];
}

/** The command and its args; throws (the client reports it) when it cannot be spawned that way here. */
export function preExecCommand(facts: SpawnFacts, command: string, args: readonly string[]): [string, string[]] {
  const group = facts.group === 'own-group';
  if (!group && facts.parentDeathSignal === null) return [command, [...args]];
  const perl = findPerl();
  if (perl === null)
    throw new Error(`the client profile spawns its server ${group ? 'in a process group of its own' : 'with a parent-death signal'}, which needs perl on PATH`);
  script ??= perlFile(join(packageRoot(), 'harness', 'shared', 'pre-exec.pl'));
  return [perl, ['-e', script, group ? '1' : '0', String(signalNumber(facts.parentDeathSignal)), prctlArgument(), String(process.pid), '--', command, ...args]];
}
