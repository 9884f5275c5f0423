/**
 * A drill's temp folder (`{{tmp}}`, the subject's scratch space) is `<tmpdir>/crash-drill-<drill
 * id>-XXXXXX`: named for its drill, so the run's sentinel can remove the folders of a run whose
 * harness died before its drills could clean up (harness/run/sentinel-main.ts). Only our own real
 * folders are removed: in a shared /tmp another user may have planted a name, or a symlink.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeOwnFolders } from '../../registry/index.js';

const PREFIX = 'crash-drill-';

/** Makes the drill's temp folder (0700, synchronous: it is in front of the server's start). */
export function makeDrillTemp(drillId: string): string {
  return mkdtempSync(join(tmpdir(), `${PREFIX}${drillId}-`));
}

/** Removes the temp folders of the run's drills that are still there; returns how many. */
export function removeDrillTemps(runId: string, dir = tmpdir()): number {
  return removeOwnFolders(dir, (name) => name.startsWith(`${PREFIX}${runId}.`));
}
