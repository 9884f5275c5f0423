/** Decoding a wait(2) status (field 52 of a zombie's /proc/PID/stat), per glibc's <bits/waitstatus.h>. */
import { constants } from 'node:os';

export type ExitStatus = { code: number | null; signal: string | null };

const signalNames = new Map<number, string>();
for (const [name, num] of Object.entries(constants.signals)) {
  if (!signalNames.has(num)) signalNames.set(num, name);
}

export function signalName(num: number): string {
  return signalNames.get(num) ?? `SIG${num}`;
}

export function decodeWaitStatus(status: number): ExitStatus {
  const sig = status & 0x7f;
  if (sig === 0) return { code: (status >> 8) & 0xff, signal: null };
  return { code: null, signal: signalName(sig) };
}
