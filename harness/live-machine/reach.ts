/** What a session can still reach, for ranking (credential names, TCP connections, children, age), over every member and descendant. */
import { credentialNames } from './credentials.js';
import type { Backend } from './types.js';

export interface Reach {
  credentials: string[];
  tcpEstablished: number;
  children: number;
  ageMs: number;
}

export function readReach(backend: Backend, pids: readonly number[], children: number, ageMs: number): Reach {
  const names: string[] = [];
  let tcp = 0;
  for (const pid of pids) {
    names.push(...(backend.environNames(pid) ?? []));
    tcp += (backend.descriptors(pid) ?? []).filter((d) => d.tcp?.state === 'ESTABLISHED').length;
  }
  return { credentials: credentialNames(names), tcpEstablished: tcp, children, ageMs };
}

/** Most reach first: a credential, then live connections, then children, then age. */
export function byReach(a: Reach, b: Reach): number {
  return (
    Number(b.credentials.length > 0) - Number(a.credentials.length > 0) || b.tcpEstablished - a.tcpEstablished || b.children - a.children || b.ageMs - a.ageMs
  );
}
