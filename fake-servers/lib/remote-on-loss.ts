/**
 * The remote part of a fake server's shutdown: let the requests in flight settle (a write
 * dispatched just before the EOF still reaches the remote, a job start still yields its id),
 * cancel the jobs it started, then run the mutant's after-loss behaviour, if any.
 */
import { monoNow } from '../../harness/util/clock.js';
import type { ActivityLog } from './activity-log.js';
import type { AfterLoss } from './after-loss.js';
import type { JobTracker } from './jobs.js';
import type { Log } from './log.js';
import type { RemoteHttp } from './remote-http.js';

/**
 * The bound on settling and cancelling together: one budget, so a request held at a gate
 * delays the exit by at most this much, within the remote matrix's 2.5 s exit deadline. A
 * well-behaved server spends none of it unless an answer is late: the remote lives in the harness process, and on a
 * loaded machine its answer to a job start could take over 500 ms (the earlier budget), so
 * that the server exited without the job's id and left the job running (a false jobs-settled
 * fail of the remote matrix, seen once with two matrices side by side on two cores).
 */
export const REMOTE_SETTLE_MS = 1000;

export interface RemoteOnLossOptions {
  http: RemoteHttp;
  jobs: JobTracker;
  log: Log;
  /** false: fire-and-forget-job, whose jobs outlive it (`jobs-settled`). */
  cancelJobs: boolean;
  /** Its own record: what is still open once the requests in flight had their deadline is unresolved. */
  activity?: ActivityLog;
  afterLoss?: AfterLoss;
}

export function remoteOnLoss(options: RemoteOnLossOptions): () => Promise<void> {
  return async () => {
    const { http, jobs, log } = options;
    const deadline = monoNow() + REMOTE_SETTLE_MS;
    await http.settle(deadline);
    if (options.cancelJobs) {
      await jobs.cancelAll(http, deadline, log);
    } else if (jobs.remembered.length > 0) {
      log(`leaving ${jobs.remembered.length} job(s) running: ${jobs.remembered.join(', ')}`);
    }
    if (http.inflightCount > 0) log(`${http.inflightCount} remote request(s) still unanswered after ${REMOTE_SETTLE_MS} ms`);
    options.activity?.closeOpen();
    await options.afterLoss?.({ http, log });
  };
}
