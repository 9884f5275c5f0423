/** One clock for every process of a drill: `process.hrtime` reads CLOCK_MONOTONIC, shared machine-wide (as Python's time.monotonic()). */
export function monoNow(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
