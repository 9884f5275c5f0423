/**
 * Plain sentences of what the active tracking methods cannot see, for reports. Kept apart from
 * the tracker so the wording can be reviewed in one place.
 */
export function blindSpots(opts: { cgroup: boolean; sampleIntervalMs: number }): string[] {
  const spots: string[] = [];
  if (!opts.cgroup) {
    spots.push(
      'a process that calls setsid and clears its environment after its parent exited is not seen',
      'a process that joins a process group or session of its own and clears its environment before the first sample after its birth is not seen',
    );
  }
  spots.push(
    `a process that starts and exits between two samples (${opts.sampleIntervalMs} ms apart) is not seen, unless it is watched by identity`,
    'work the subject hands to another service (a container daemon, systemd-run, a remote host) is not a descendant and is not seen',
  );
  if (opts.cgroup) {
    spots.push('a process forked before the root joined the drill cgroup is outside it and is seen only by the other methods');
  }
  return spots;
}
