/**
 * One drill's section: verdict and reason, its checks, the incident record, the server's exit,
 * survivors, containment, the evidence log, and the timeline. Failed drills open by default.
 */
import { describeStep, modeLabel, unsourcedText } from '../../harness/results/constants.js';
import type { DrillResult } from '../types.js';
import { anchorOf, esc, verdictClass } from './escape.js';
import type { EvidenceRead } from './evidence-file.js';
import { renderIncident } from './incident.js';
import type { DrillLine } from './types.js';
import { renderTimeline } from './timeline.js';
import { timelineEntries } from './timeline-entries.js';

function checks(d: DrillResult): string {
  if (d.checks.length === 0) return '<p class="muted">No check applied.</p>';
  const rows = d.checks
    .map((c) => {
      // A failure the baseline lists shows as known, with the baseline's reason.
      const known = c.verdict === 'fail' ? d.known?.find((k) => k.check === c.id) : undefined;
      const shown = known ? 'known' : c.verdict;
      const why = known ? `<div class="muted">known failure (baseline): ${esc(known.reason || 'no reason written')}</div>` : '';
      return `<tr class="check ${verdictClass(shown)}"><td><span class="badge ${verdictClass(shown)}">${esc(shown)}</span></td><td><a href="#requirement-${esc(c.id)}"><code>${esc(c.id)}</code></a></td><td class="summary"><span class="text">${esc(c.summary)}</span>${why}${findings(d, c.id)}</td></tr>`;
    })
    .join('');
  return `<table class="checks"><tbody>${rows}</tbody></table>`;
}

/** What a failed check found, as the check set it out (the incident record's findings). */
function findings(d: DrillResult, check: string): string {
  const mine = (d.incident.findings ?? []).filter((f) => f.check === check);
  return mine.map((f) => `<div class="finding">${esc(f.label)}:<ul>${f.items.map((item) => `<li>${esc(item)}</li>`).join('')}</ul></div>`).join('');
}

function exit(d: DrillResult): string {
  const x = d.exit;
  if (!x) return '<p class="muted">The server never started.</p>';
  const how = x.signal
    ? `signal ${esc(x.signal)}${x.signalFrom ? ` from ${esc(x.signalFrom)}` : ''}`
    : x.code === null
      ? 'status unknown'
      : `code ${esc(x.code)}`;
  const after = x.afterLossMs === null ? '' : `, ${esc(x.afterLossMs)} ms after the client was lost`;
  const tail = x.stderrTail ? `<details class="stderr"><summary>stderr tail</summary><pre>${esc(x.stderrTail)}</pre></details>` : '';
  return `<p>pid ${esc(x.pid ?? '?')}: <b>${esc(x.class)}</b>, ${how}${after}${x.endedAfter ? `, after ${esc(x.endedAfter)}` : ''}${x.crash ? `; crash: <code>${esc(x.crash)}</code>` : ''}</p>${tail}`;
}

function survivors(d: DrillResult): string {
  if (d.survivors.length === 0) return '<p>None.</p>';
  const rows = d.survivors
    .map(
      (s) =>
        `<tr><td>${esc(s.pid)}</td><td>${esc(s.ppid)}</td><td>${esc(s.state)}</td><td><code>${esc(s.cmdline.join(' '))}</code></td><td>${esc(s.foundBy.join(', '))}</td><td>${s.credential.present ? `holds ${esc(s.credential.vars.join(', '))}` : 'no'}</td></tr>`,
    )
    .join('');
  return `<table class="grid"><thead><tr><th>pid</th><th>ppid</th><th>state</th><th>command</th><th>found by</th><th>credential</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function containment(d: DrillResult): string {
  if (d.containment.length === 0) return '<p>Nothing to contain.</p>';
  const rows = d.containment
    .map(
      (c) =>
        `<tr><td>${esc(c.pid)}</td><td><code>${esc(c.cmdline.join(' '))}</code></td><td>${esc(c.endedBy)}${c.forced ? ' (forced)' : ''}</td><td>${esc(c.steps.map(describeStep).join(' → '))}</td></tr>`,
    )
    .join('');
  return `<table class="grid"><thead><tr><th>pid</th><th>command</th><th>ended by</th><th>steps</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function evidence(d: DrillResult, read: EvidenceRead | { error: string } | null): string {
  if (!d.evidence) return '<p class="muted">No evidence log was written for this drill.</p>';
  const state = !read
    ? ''
    : 'error' in read
      ? ` <span class="warn">${esc(read.error)}</span>`
      : ` chain ${read.chain === 'intact' ? 'intact' : `<span class="warn">${esc(read.chain)}</span>`}`;
  return `<p><code>evidence/${esc(d.evidence.file)}</code>, ${esc(d.evidence.records)} records, head <code class="hash">${esc(d.evidence.head)}</code>;${state}</p>`;
}

export function renderDrill(d: DrillResult, read: EvidenceRead | { error: string } | null): string {
  const open = d.verdict !== 'pass' ? ' open' : '';
  return `<details class="drill ${verdictClass(d.verdict)}" id="${esc(anchorOf(d.id))}"${open}>
${drillSummary(d)}
<div class="body">
${drillBody(d, read)}
</div>
</details>`;
}

/**
 * A drill whose body is in a file of its own (a large run: reports/html/reporter.ts), loaded when it is
 * opened: the page holds a line a drill, not its timeline and records.
 */
export function renderDrillStub(d: DrillLine, src: string): string {
  return `<details class="drill ${verdictClass(d.verdict)}" id="${esc(anchorOf(d.id))}" data-src="${esc(src)}">
${drillSummary(d)}
<div class="body"><p class="muted loading">Loading <code>${esc(src)}</code>…</p></div>
</details>`;
}

function drillSummary(d: DrillLine): string {
  return `<summary><span class="badge ${verdictClass(d.verdict)}">${esc(d.verdict)}</span> <b>${esc(d.scenario)}</b> ${esc(d.point)}/${esc(modeLabel(d))} <span class="muted">${esc(d.id)} · ${esc(d.durationMs)} ms</span><div class="reason">${esc(d.reason)}</div></summary>`;
}

/** What a drill's section shows once opened: checks, timeline, incident record, exit, survivors, containment, tracking, evidence. */
export function drillBody(d: DrillResult, read: EvidenceRead | { error: string } | null): string {
  const timeline =
    read && 'events' in read ? renderTimeline(timelineEntries(read.events)) : '<p class="muted">No timeline: the evidence log is not available.</p>';
  return `<p class="muted">subject ${esc(d.subject.name)}: <code>${esc([d.subject.command, ...d.subject.args].join(' '))}</code>${d.handshake?.serverName ? ` · ${esc(d.handshake.serverName)} ${esc(d.handshake.serverVersion ?? '')} · protocol ${esc(d.handshake.protocolVersion ?? '?')}` : ''}</p>
${pointProcess(d)}${unsourced(d)}<h4>Checks</h4>${checks(d)}
<h4>Timeline</h4>${timeline}
<div class="cols"><section><h4>Incident record</h4>${renderIncident(d.incident)}</section>
<section><h4>Server exit</h4>${exit(d)}<h4>Survivors</h4>${survivors(d)}<h4>Containment</h4>${containment(d)}<h4>Tracking</h4>${tracking(d)}<h4>Evidence</h4>${evidence(d, read)}</section></div>`;
}

/** The client-profile steps the drill used that rest on no source (harness/client-profiles/). */
function unsourced(d: DrillResult): string {
  const text = unsourcedText(d);
  return text ? `<p class="unsourced">${esc(text)}</p>` : '';
}

/** The process the kill point fired on (child-spawned: the child the call started), by identity. */
function pointProcess(d: DrillResult): string {
  const p = d.pointProcess;
  if (!p) return '';
  return `<p class="point-process">${esc(d.point)} fired on pid ${esc(p.pid)} (start time ${esc(p.startTime)}, started ${esc(p.sinceDispatchMs)} ms after the call was written, alive ${esc(p.aliveMs)} ms after its exec was seen): <code>${esc(p.cmdline.join(' '))}</code></p>`;
}

/** Which process-tracking methods were in force, and what they cannot see. */
function tracking(d: DrillResult): string {
  if (!d.tracking) return '<p class="muted">No tracking (the drill never started its client).</p>';
  const spots = d.tracking.blindSpots.map((b) => `<li>${esc(b)}</li>`).join('');
  return `<p>${esc(d.tracking.methods.join(', '))}${d.tracking.cgroup ? ` (cgroup <code>${esc(d.tracking.cgroup)}</code>)` : ''}</p>${spots ? `<p class="muted">Cannot see:</p><ul>${spots}</ul>` : ''}`;
}
