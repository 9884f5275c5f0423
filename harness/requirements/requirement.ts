/**
 * What each check and expectation statement tests, and where that comes from: the MCP spec (MUST
 * or SHOULD, revision, address), a conformance-suite traceability row, or practice (with why).
 * A leaf: checks and statements declare theirs here; `crash-drill requirements` lists them.
 */

export type RequirementSource = 'spec' | 'conformance' | 'practice';

export interface Requirement {
  source: RequirementSource;
  /** spec: a name of ours for the sentence; conformance: the suite's check id; practice: `practice-<what>`. */
  id: string;
  level: 'MUST' | 'SHOULD' | null;
  /** The requirement, as its source words it (practice: as we word it). */
  text: string;
  url: string | null;
  /** The spec revision the text is from; null for practice. */
  revision: string | null;
  /** Where it was read: the file and commit of the spec or the suite. Practice: null. */
  readFrom: string | null;
  /** Practice: why a server should meet it though the spec does not say so. Conformance: how the id relates to the suite's row. */
  reason?: string;
}

/** The spec revision the requirements are read from, and the commit of the spec's repository read. */
export const SPEC_REVISION = '2026-07-28';
const SPEC_COMMIT = 'b0f60ba5';

/** A page of the spec, as its address and its source file name it. */
export type SpecPage = 'basic/transports/stdio' | 'basic/patterns/cancellation';

const pageUrl = (page: SpecPage, section: string | null) =>
  `https://modelcontextprotocol.io/specification/${SPEC_REVISION}/${page}${section ? `#${section}` : ''}`;

export function spec(id: string, level: 'MUST' | 'SHOULD', page: SpecPage, section: string | null, text: string): Requirement {
  return {
    source: 'spec',
    id,
    level,
    text,
    url: pageUrl(page, section),
    revision: SPEC_REVISION,
    readFrom: `modelcontextprotocol/modelcontextprotocol docs/specification/${SPEC_REVISION}/${page}.mdx at ${SPEC_COMMIT}`,
  };
}

/**
 * A row of the conformance suite's SEP traceability file. Its stdio rows are excluded there
 * (conformance #258) and carry no check id, so the id is ours, in the suite's naming.
 */
export function conformance(id: string, level: 'MUST' | 'SHOULD', section: string, text: string, row: string): Requirement {
  return {
    source: 'conformance',
    id,
    level,
    text,
    url: pageUrl('basic/transports/stdio', section),
    revision: SPEC_REVISION,
    readFrom: `modelcontextprotocol/conformance ${row} at c321dd32`,
    reason:
      'the suite lists this stdio requirement as excluded (stdio client harness not implemented, conformance #258), without a check id; this is that row, named in the suite’s own scheme',
  };
}

export function practice(id: string, text: string, reason: string): Requirement {
  return { source: 'practice', id: `practice-${id}`, level: null, text, url: null, revision: null, readFrom: null, reason };
}

/** One line for a person: `spec 2026-07-28 SHOULD: <text> (<url>)`, `conformance <id> MUST: ...`, `practice: <text> (why: ...)`. */
export function requirementLine(r: Requirement): string {
  const level = r.level ? ` ${r.level}` : '';
  if (r.source === 'practice') return `practice: ${r.text} (why: ${r.reason})`;
  const name = r.source === 'conformance' ? `conformance ${r.id}` : `spec ${r.revision}`;
  return `${name}${level}: ${r.text}${r.url ? ` (${r.url})` : ''}`;
}
