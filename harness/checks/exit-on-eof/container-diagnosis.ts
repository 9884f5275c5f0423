/** Why a containerised server did not exit on EOF: the container held it up, not the engine CLI the drill started. Pure. */
import { containerContainmentOf, containerExitOf, containerServerOf, containerStepLines, shortId } from '../../evidence/container-queries.js';
import type { DrillEvidence } from '../../evidence/types.js';
import type { Cause } from '../types.js';

/** The subject's own container did not exit on EOF in time. */
export function containerExitCause(evidence: DrillEvidence): Cause | null {
  const server = containerServerOf(evidence);
  if (!server) return null;
  const c = server.container;
  const exit = containerExitOf(evidence);
  const steps = containerContainmentOf(evidence).find((r) => r.id === c.id)?.steps ?? [];
  const killed = steps.some((s) => s.kind === 'engine' && s.command === 'kill' && s.result === 'sent') || exit?.code === 137;
  const observed = [
    `the server is container ${shortId(c.id)} (${c.image}, ${c.command.join(' ').slice(0, 60)}), run by the engine CLI pid ${server.cli.pid}`,
    exit ? `the container exited with code ${exit.code}` : 'the container had not exited when the drill ended',
    ...containerStepLines(evidence, c.id).map((line) => `containment: ${line}`),
  ];
  return {
    cause: `the container's main process did not exit when its stdin closed (docker run -i passes the client's EOF on)${killed ? ', and it outlived SIGTERM: only a kill ended it' : ''}`,
    observed,
    sdk: null,
    fix: killed
      ? "make the container's main process exit on stdin EOF, and run it with --init (a PID 1 without a SIGTERM handler ignores SIGTERM, so docker stop waits and kills)"
      : "make the container's main process exit on stdin EOF",
  };
}
