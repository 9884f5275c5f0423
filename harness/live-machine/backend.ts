/**
 * Which backend reads the machine: /proc where it exists (Linux), else ps + lsof (macOS).
 * `--backend` picks one explicitly, so the ps + lsof backend can be run and compared on Linux.
 */
import { procAvailable } from './observe.js';
import { procBackend } from './proc-backend.js';
import { psLsofBackend } from './ps-lsof-backend.js';
import type { Backend, BackendName } from './types.js';

export const BACKEND_NAMES: readonly BackendName[] = ['proc', 'ps-lsof'];

export function chooseBackend(name?: BackendName | 'auto'): Backend {
  if (name === 'proc') return procBackend;
  if (name === 'ps-lsof') return psLsofBackend;
  return procAvailable() ? procBackend : psLsofBackend;
}
