/** What the evidence holds about containers; `t` is monotonic ms, converted from the engine's wall clock. */
import type { Engine } from './engine-cli.js';
import type { LabelChange } from './label.js';
import type { ContainerContainment } from '../containment/containers.js';

export type { Engine, LabelChange };

/** The engine CLI process that asked for a container. */
export type CliProcess = { pid: number; startTime: number; cmdline: string[] };

export type ContainerRow = {
  id: string;
  name: string;
  image: string;
  command: string[];
  state: string;
  /** The engine's creation time (ISO): with the id, the container's identity. */
  created: string;
  labels: Record<string, string>;
  /** Host pid of the container's first process while it runs. */
  pid: number | null;
  attributedBy: 'label' | 'engine-cli';
  cli: CliProcess | null;
};

/** A container created in the drill window that cannot be tied to this drill or ruled out. */
export type AmbiguousContainer = { id: string; name: string; image: string; created: string; reason: string };

export type ContainerEvidenceEvent =
  /** How the harness changed the subject command to label its container (or why it did not). */
  | { type: 'container-label'; change: LabelChange }
  /** The engine the drill's containers run on, and whether the harness could reach it. */
  | { type: 'container-engine'; engine: Engine; endpoint: string[]; reachable: boolean; version: string | null; error: string | null }
  /** The subject is a containerised server: the engine CLI in front of it and its container. */
  | { type: 'container-server'; cli: CliProcess; container: ContainerRow }
  /** The subject's container ended (the engine's `die` event): its exit code is the server's. */
  | { type: 'container-exit'; id: string; code: number | null; wall: string }
  /** The drill's containers at the end of the grace period (or the hang window). */
  | {
      type: 'container-snapshot';
      label: 'grace-end' | 'hang-window';
      reachable: boolean;
      running: ContainerRow[];
      seen: ContainerRow[];
      ambiguous: AmbiguousContainer[];
      blindSpots: string[];
    }
  | { type: 'container-containment'; records: ContainerContainment[] };
