/** A ground-truth cell as the table shows it: who survived, by role, or `none`. */
import type { TrialResult } from './trial.js';

/** `server` is the real server behind a launcher (or a shell): a descendant that is not the helper. */
export function cell(result: TrialResult): string {
  if (result.error) return `error: ${result.error.split('\n')[0]}`;
  const roles = [...new Set(result.survivors.map((s) => (s.role === 'descendant' ? 'server' : s.role)))].sort();
  return roles.length === 0 ? 'none' : roles.join(' + ');
}
