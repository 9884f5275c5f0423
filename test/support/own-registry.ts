/**
 * A run registry of a test's own (CRASH_DRILL_REGISTRY), for a test that kills a run and then
 * expects its own sweep, or the next run, to find it: any harness of the user's that starts in
 * between (another test file's run, sweeping at its start; another crash-drill run beside the suite)
 * would sweep the dead run in the machine's registry and take its processes and records first. In a
 * registry of its own no other harness sees the run registered, so none judges it
 * (harness/registry/runs.ts). `parent`: a folder the runs' user owns.
 */
import { join } from 'node:path';
import { REGISTRY_ENV } from '../../harness/registry/index.js';
import { tempDir } from './temp-dir.js';

export function ownRegistryEnv(parent: string = tempDir('crash-drill-registry-')): Record<typeof REGISTRY_ENV, string> {
  return { [REGISTRY_ENV]: join(parent, 'registry') };
}
