import { sessionOf } from '../../evidence/queries.js';
import { eventsOf, type DrillEvidence } from '../../evidence/types.js';
import { isNotReached, lossOrUnknown } from '../../evidence/loss.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import { jobsCause } from './diagnosis.js';
import { practice } from '../../requirements/requirement.js';

export interface JobsSettledData {
  jobs: Array<{ id: string; status: string }>;
  /** Ids of the jobs still running at the end of the grace period. */
  unresolved: string[];
}

/**
 * jobs-settled: every remote job the session started is completed or cancelled by the end of
 * the grace period; the ones still running are listed by id, for someone to cancel.
 */
export const jobsSettled = defineCheck({
  id: 'jobs-settled',
  requirement: practice(
    'remote-jobs-settle',
    'Every remote job the session started is completed or cancelled by the end of the grace period.',
    'A job left running after its session keeps spending and changing things with no one to read its result; the spec says nothing of work a server starts elsewhere.',
  ),
  matcher: { name: 'toSettleItsJobs', expects: 'settle every remote job it started' },
  applies: (evidence, mode) => evidence.meta.expect.jobsSettled != null && mode !== 'hang',
  run(evidence: DrillEvidence): Judgement<JobsSettledData> {
    const loss = lossOrUnknown(evidence);
    if (isNotReached(loss)) return loss;
    const state = eventsOf(evidence, 'remote-state').find((e) => e.label === 'grace-end');
    if (!state) return { verdict: 'unknown', summary: 'the remote state was not recorded at the end of the grace period', data: {} };
    const session = sessionOf(evidence, 'drill');
    const jobs = state.jobs.filter((job) => job.sessionId === session);
    const running = jobs.filter((job) => job.status === 'running');
    const data = { jobs: jobs.map((job) => ({ id: job.id, status: job.status })), unresolved: running.map((job) => job.id) };
    if (running.length > 0) {
      return {
        verdict: 'fail',
        summary: `${running.length} remote job${running.length === 1 ? '' : 's'} still running at the end of the grace period: ${running.map((j) => j.id).join(', ')}; cancel ${running.length === 1 ? 'it' : 'them'}`,
        data,
      };
    }
    if (jobs.length === 0) return { verdict: 'pass', summary: 'the session started no remote job', data };
    const cancelled = jobs.filter((j) => j.status === 'cancelled').length;
    return { verdict: 'pass', summary: `all ${jobs.length} remote jobs settled (${cancelled} cancelled, ${jobs.length - cancelled} completed)`, data };
  },
  followUp: (outcome) => (dataOf(outcome).unresolved ?? []).map((job) => `job ${job} is still running: cancel it`),
  details(outcome) {
    const unresolved = dataOf(outcome).unresolved ?? [];
    return unresolved.length > 0 ? [{ label: 'unresolved jobs', items: unresolved }] : [];
  },
  diagnose: (_outcome, evidence) => jobsCause(evidence),
});
