/** Field paths as a user writes them (`setup[0].call`, `subject.env["a b"]` for keys that would not read back). */
const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

export function formatFieldPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else {
      const key = String(seg);
      if (PLAIN_KEY.test(key)) out += out === '' ? key : `.${key}`;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

/** Reads the raw value at a path, or undefined when any step is missing. */
export function valueAt(root: unknown, segments: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const seg of segments) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}
