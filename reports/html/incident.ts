/** The incident record of a drill (every field of IncidentRecord) as a definition list. */
import type { IncidentRecord, Moment } from '../../harness/results/types.js';
import { esc } from './escape.js';

function moment(m: Moment | null): string {
  if (!m) return '<span class="muted">none</span>';
  return `${esc(m.ms)} ms${m.at ? ` <span class="muted">(${esc(m.at)})</span>` : ''}`;
}

function list(items: string[]): string {
  return items.length ? `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>` : '<span class="muted">none</span>';
}

const NONE = '<span class="muted">none</span>';

/** Per failed check: the cause as observed, then what showed it and the SDK's known behaviour. */
function diagnosis(entries: NonNullable<IncidentRecord['diagnosis']>): string {
  return entries.map((g) => `<p><code>${esc(g.check)}</code>: ${esc(g.cause)}</p>${list([...g.observed, ...(g.sdk ? [`known: ${g.sdk}`] : [])])}`).join('');
}

/** The drill remote's rows, only where the drill had a remote (the record then has its authorization). */
function remoteRows(r: IncidentRecord, rows: Array<[string, string]>): Array<[string, string]> {
  return r.authorization !== undefined ? rows : [];
}

export function renderIncident(r: IncidentRecord): string {
  const rows: Array<[string, string]> = [
    ['observed at', moment(r.observedAt)],
    ['client', r.client ? `pid ${esc(r.client.pid)}: <code>${esc(r.client.command)}</code>` : NONE],
    [
      'server',
      r.server
        ? `pid ${esc(r.server.pid)} (ppid ${esc(r.server.ppid ?? '?')}, pgid ${esc(r.server.pgid ?? '?')}): <code>${esc(r.server.command)}</code>`
        : NONE,
    ],
    ...remoteRows(r, [
      ['session', r.sessionId ? esc(r.sessionId) : NONE],
      ['authorization', esc(r.authorization ?? '')],
    ]),
    ['client unavailable at', moment(r.clientUnavailableAt)],
    ...remoteRows(r, [
      ['last action started at', moment(r.lastActionStartedAt ?? null)],
      ['last successful action at', moment(r.lastSuccessfulActionAt ?? null)],
      ['last attempted action at', moment(r.lastAttemptedActionAt ?? null)],
    ]),
    [
      'action',
      r.action
        ? `tool <code>${esc(r.action.tool || '?')}</code>${r.action.operation ? `, ${esc(r.action.operation)}` : ''}${r.action.target ? ` on ${esc(r.action.target)}` : ''}`
        : NONE,
    ],
    ...remoteRows(r, [
      ['effects', list(r.result?.effects ?? [])],
      ['jobs', list(r.result?.jobs ?? [])],
      ['revocation', r.revocation ? `${moment(r.revocation.at)} by ${esc(r.revocation.operator)}` : NONE],
    ]),
    ['termination', esc(r.termination)],
    ['protocol', esc(r.protocol ?? 'not recorded')],
    ...(r.cancelledAt ? ([['cancelled at', moment(r.cancelledAt)]] as Array<[string, string]>) : []),
    ...(r.recordCut && r.recordCut.length > 0 ? ([['record cut', list(r.recordCut)]] as Array<[string, string]>) : []),
    ...(r.activity ? ([["the server's own record", esc(r.activity.line)]] as Array<[string, string]>) : []),
    ...(r.diagnosis && r.diagnosis.length > 0 ? ([['diagnosis', diagnosis(r.diagnosis)]] as Array<[string, string]>) : []),
    ['follow-up', list(r.followUp)],
  ];
  return `<dl class="incident">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}
