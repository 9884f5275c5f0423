/** A drill's timeline: a row per lane on one axis, lines at kill, exit and revocation, then a compact table; CSS only, no script. */
import { esc } from './escape.js';
import { LANES, type TimelineEntry } from './timeline-entries.js';

function pct(ms: number, span: number): string {
  return `${Math.min(100, Math.max(0, (ms / span) * 100)).toFixed(2)}%`;
}

function ticks(span: number): string {
  return [0, 0.25, 0.5, 0.75, 1].map((f) => `<span class="tick" style="left:${pct(span * f, span)}">${Math.round(span * f)} ms</span>`).join('');
}

export function renderTimeline(entries: TimelineEntry[]): string {
  if (entries.length === 0) return '<p class="muted">No events.</p>';
  const span = Math.max(1, ...entries.map((e) => e.ms));
  // The kill is drawn last so that it stays visible when the revocation comes at the same moment.
  const layer = { revoked: 0, exit: 1, kill: 2 } as const;
  const majors = entries
    .filter((e) => e.major)
    .sort((a, b) => layer[a.major!] - layer[b.major!])
    .map((e) => `<div class="major major-${e.major}" style="left:${pct(e.ms, span)}" title="${esc(`${e.ms} ms: ${e.what}`)}"></div>`)
    .join('');
  const lanes = LANES.filter((lane) => entries.some((e) => e.lane === lane))
    .map((lane) => {
      const marks = entries
        .filter((e) => e.lane === lane)
        .map(
          (e) =>
            `<span class="mark lane-${lane}${e.major ? ` mark-${e.major}` : ''}" style="left:${pct(e.ms, span)}" title="${esc(`${e.ms} ms: ${e.what}`)}"></span>`,
        )
        .join('');
      return `<div class="lane"><span class="lane-name">${lane}</span><div class="track">${marks}</div></div>`;
    })
    .join('');
  const rows = entries
    .map(
      (e) =>
        `<tr class="${e.major ? `row-${e.major}` : ''}"><td class="ms">${e.ms.toFixed(1)}</td><td><span class="dot lane-${e.lane}"></span>${e.lane}</td><td>${esc(e.what)}</td></tr>`,
    )
    .join('');
  return `<div class="timeline" role="img" aria-label="timeline of the drill, ${Math.round(span)} ms">
<div class="lanes"><div class="overlay">${majors}</div>${lanes}<div class="lane axis"><span class="lane-name">ms</span><div class="track">${ticks(span)}</div></div></div>
<div class="legend"><span class="key key-kill"></span>kill <span class="key key-exit"></span>server exit <span class="key key-revoked"></span>revocation</div>
</div>
<div class="events"><table class="tl"><thead><tr><th>ms</th><th>lane</th><th>what happened</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
