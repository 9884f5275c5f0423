/**
 * Every timer a fake server starts for a tool (subscriptions, slow calls), so shutdown can clear
 * them all. An uncleared interval is exactly what keeps an SDK server alive after EOF.
 */
export class TimerRegistry {
  private readonly intervals = new Set<NodeJS.Timeout>();
  private readonly timeouts = new Set<NodeJS.Timeout>();

  interval(fn: () => void, ms: number): void {
    this.intervals.add(setInterval(fn, ms));
  }

  /** Resolves after `ms`; if cleared first, never resolves (the process is exiting anyway). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timeouts.delete(timer);
        resolve();
      }, ms);
      this.timeouts.add(timer);
    });
  }

  get liveCount(): number {
    return this.intervals.size + this.timeouts.size;
  }

  clearAll(): void {
    for (const timer of this.intervals) clearInterval(timer);
    for (const timer of this.timeouts) clearTimeout(timer);
    this.intervals.clear();
    this.timeouts.clear();
  }
}
