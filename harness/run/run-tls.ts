/** A run's TLS: its CA (in memory only) and trust files in the run's private registry folder (registry.ts), removed at its end or by removeDeadTlsFolders. */
import { mkdirSync, rmSync } from 'node:fs';
import type { RunCa } from '../remote/tls/run-ca.js';
import type { TrustFiles } from '../remote/tls/trust-files.js';
import { removeOwnFolders } from '../registry/index.js';
import { isRunLive, runFile, runsDir } from '../registry/index.js';

export const TLS_SUFFIX = '.tls';

export class RunTls {
  private caP?: Promise<RunCa>;
  private filesP?: Promise<TrustFiles>;
  private dir?: string;

  constructor(private readonly runId: string) {}

  /** The run's CA, made once (the library loads only then: a run with no remote never pays for it). */
  ca(): Promise<RunCa> {
    this.caP ??= import('../remote/tls/run-ca.js').then(({ RunCa }) => RunCa.create(this.runId));
    return this.caP;
  }

  files(): Promise<TrustFiles> {
    this.filesP ??= this.ca().then(async (ca) => {
      removeDeadTlsFolders(); // what runs whose harness died left
      const dir = runFile(this.runId, TLS_SUFFIX);
      mkdirSync(dir, { mode: 0o700 }); // fails on a name that exists: nothing planted is used
      this.dir = dir;
      const { writeTrustFiles } = await import('../remote/tls/trust-files.js');
      return writeTrustFiles(dir, ca);
    });
    return this.filesP;
  }

  /** Removes the run's folder (after its writing settled, so nothing lands in it afterwards). */
  async close(): Promise<void> {
    await this.filesP?.catch(() => undefined);
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The `.tls` folders of runs whose harness is gone: real folders of this user only. */
export function removeDeadTlsFolders(accept: (runId: string) => boolean = () => true): number {
  let dir: string;
  try {
    dir = runsDir();
  } catch {
    return 0;
  }
  return removeOwnFolders(dir, (name) => {
    const runId = name.slice(0, -TLS_SUFFIX.length);
    return name.endsWith(TLS_SUFFIX) && accept(runId) && !isRunLive(runId);
  });
}
