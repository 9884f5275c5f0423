/**
 * One clock for every process of a drill. `process.hrtime` reads CLOCK_MONOTONIC on Linux,
 * which is shared by all processes on the machine, so a timestamp taken in the drill client,
 * in the harness or in a fake server can be compared directly (Python's time.monotonic()
 * reads the same clock).
 */
export function monoNow(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
