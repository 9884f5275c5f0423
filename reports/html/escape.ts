/**
 * HTML escaping: every piece of text that reaches the report goes through `esc` (element text
 * and quoted attribute values alike), so a summary holding `<script>` renders as text.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

/** Text as inline code: `<code>` around its escaped text. */
export function codeHtml(value: unknown): string {
  return `<code>${esc(value)}</code>`;
}

/** A safe fragment id for a drill (ids hold dots and dashes; anything else becomes `_`). */
export function anchorOf(drillId: string): string {
  return `drill-${drillId.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

/** A verdict as a class name: only the fixed vocabulary passes through. */
export function verdictClass(verdict: string): string {
  return ['pass', 'fail', 'unknown', 'error', 'known'].includes(verdict) ? `v-${verdict}` : 'v-unknown';
}
