import { monoNow } from '../util/clock.js';
import type { Job, JobStatus } from './types.js';

/** `seq`: the request that settled it; undefined when its timer completed it. */
export type JobListener = (job: Job, status: JobStatus, seq?: number) => void;

/** Remote jobs: each running job owns one timer that completes it; cancel() or close() clear it. */
export class JobsStore {
  private readonly jobs = new Map<string, Job>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly onSettle: JobListener) {}

  start(job: Omit<Job, 'status' | 'settledT'>): Job {
    const existing = this.jobs.get(job.id);
    if (existing) return existing; // a replayed POST /jobs returns the same job
    const full: Job = { ...job, status: 'running' };
    this.jobs.set(full.id, full);
    const timer = setTimeout(() => this.settle(full.id, 'completed'), Math.max(0, job.durationMs));
    timer.unref();
    this.timers.set(full.id, timer);
    return full;
  }

  get(id: string, drillId: string | undefined): Job | undefined {
    const job = this.jobs.get(id);
    return job && job.drillId === drillId ? job : undefined;
  }

  /** Cancels a running job; returns the job as it is afterwards (unchanged if it had settled). */
  cancel(id: string, drillId: string | undefined, seq?: number): Job | undefined {
    const job = this.get(id, drillId);
    if (job?.status === 'running') this.settle(id, 'cancelled', seq);
    return job;
  }

  list(drillId?: string): Job[] {
    return [...this.jobs.values()].filter((j) => drillId === undefined || j.drillId === drillId).map((j) => ({ ...j }));
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private settle(id: string, status: JobStatus, seq?: number): void {
    const job = this.jobs.get(id);
    if (!job || job.status !== 'running') return;
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    job.status = status;
    job.settledT = monoNow();
    this.onSettle({ ...job }, status, seq);
  }
}
