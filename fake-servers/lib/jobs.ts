/**
 * The remote jobs a fake server started, so a well-behaved one can cancel them when it loses
 * its client (`jobs-settled`). Cancelling is not a write (harness/remote/README.md), so doing
 * it after input loss keeps `quiet-after-loss` green.
 */
import type { Log } from './log.js';
import { describeFailure, type RemoteHttp } from './remote-http.js';

export class JobTracker {
  private readonly ids = new Set<string>();

  remember(id: string): void {
    this.ids.add(id);
  }

  get remembered(): string[] {
    return [...this.ids];
  }

  /**
   * `POST /jobs/:id/cancel` for every remembered job, all at once, awaited until the
   * monotonic `deadline`. A 409 (already completed) is as good as a cancel.
   */
  async cancelAll(http: RemoteHttp, deadline: number, log: Log): Promise<void> {
    const ids = this.remembered;
    if (ids.length === 0) return;
    this.ids.clear();
    for (const id of ids) {
      http.request({ method: 'POST', path: `/jobs/${encodeURIComponent(id)}/cancel` }).then(
        (answer) => log(`cancel job ${id}: HTTP ${answer.status}`),
        (error: unknown) => log(`cancel job ${id} failed: ${describeFailure(error)}`),
      );
    }
    await http.settle(deadline);
  }
}
