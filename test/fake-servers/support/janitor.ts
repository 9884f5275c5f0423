/** Every process a test learns of is tracked here and SIGKILLed by identity afterwards. */
import { identify as identityOf, isAlive as isRunning, type ProcIdentity } from '../../../harness/observe/identity.js';
import { signalByIdentity, waitUntil } from './proc.js';

export class ProcessJanitor {
  private readonly tracked: ProcIdentity[] = [];

  /** Records the identity now; returns it (null if the pid is already gone). */
  track(pid: number): ProcIdentity | null {
    const id = identityOf(pid);
    if (id) this.tracked.push(id);
    return id;
  }

  async cleanup(): Promise<void> {
    const ids = this.tracked.splice(0);
    for (const id of ids) signalByIdentity(id, 'SIGKILL');
    await waitUntil(() => ids.every((id) => !isRunning(id)), 10_000, 'tracked processes to die');
  }
}
