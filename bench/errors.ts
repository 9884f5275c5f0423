export type BenchErrorCode =
  | 'BENCH_SURVIVOR'
  | 'BENCH_DRILL_NOT_PASSED'
  | 'BENCH_BAD_HELPER_ANSWER'
  | 'BENCH_USAGE'
  | 'BENCH_RUN_FAILED'
  | 'BENCH_NO_EXIT_MARK';

/** A benchmark that cannot stand behind its figures stops with one of these. */
export class BenchError extends Error {
  constructor(
    readonly code: BenchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BenchError';
  }
}
