/**
 * What the CLI says about a baseline on stderr after a run: only what no reporter can, that the
 * file was rewritten. Stale entries and known failures are in every reporter.
 */
import type { BaselineInfo } from '../results/types.js';

export function baselineNotes(info: BaselineInfo): string {
  if (!info.updated) return '';
  const { added, removed } = info.updated;
  return `crash-drill: baseline ${info.file} rewritten from this run: ${added} entr${added === 1 ? 'y' : 'ies'} added, ${removed} removed, ${info.entries} listed; fill in the reason of each new one\n`;
}
