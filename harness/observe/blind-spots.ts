/** Plain sentences of what the active tracking methods cannot see, for reports; each configuration's list must be true for it. */
export function blindSpots(opts: { cgroup: boolean; subreaper: boolean; sampleIntervalMs: number }): string[] {
  const spots: string[] = [];
  if (!opts.cgroup && !opts.subreaper) {
    spots.push(
      'a process that calls setsid and clears its environment after its parent exited is not attributed to the drill: when one appears, no-survivors is unknown, never pass',
      'a process that joins a process group or session of its own and clears its environment before the first sample after its birth is not attributed (the same floor applies)',
    );
  }
  spots.push(
    `a process that starts and exits between two samples (${opts.sampleIntervalMs} ms apart) is not seen, unless it is watched by identity`,
    'work the subject hands to another service (a container daemon, systemd-run, a remote host) is not a descendant and is not seen',
  );
  if (opts.cgroup) {
    spots.push('a process forked before the root joined the drill cgroup is outside it and is seen only by the other methods');
  }
  if (opts.subreaper && !opts.cgroup) {
    spots.push(
      "a process that outlives the drill's holder (the harness died and the holder was killed with it) is re-parented to init and is found only by its marker",
    );
  }
  return spots;
}
