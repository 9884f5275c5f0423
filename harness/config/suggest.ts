/** "Did you mean" for unknown keys: compared lower-cased without `-`, `_` and `.`, then by abbreviation, else by edit distance. */
export function suggestKey(unknown: string, known: readonly string[]): string | undefined {
  const norm = (s: string): string => s.toLowerCase().replace(/[-_.]/g, '');
  const target = norm(unknown);
  const exact = known.find((k) => norm(k) === target);
  if (exact !== undefined) return exact;
  // Abbreviations (`cmd` -> `command`) and longer spellings (`environment` -> `env`).
  if (target.length >= 2) {
    const abbreviates = known.filter((k) => norm(k)[0] === target[0] && isSubsequence(target, norm(k)));
    if (abbreviates.length === 1) return abbreviates[0];
    const extends_ = known.filter((k) => norm(k).length >= 3 && target.startsWith(norm(k)));
    if (extends_.length === 1) return extends_[0];
  }
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(target, norm(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  // Allow about one typo per four characters, at least one, so `cmd` does not become `id`.
  const allowed = Math.max(1, Math.floor(target.length / 4));
  return bestDistance <= allowed ? best : undefined;
}

function isSubsequence(short: string, long: string): boolean {
  let i = 0;
  for (const ch of long) if (ch === short[i]) i++;
  return i === short.length;
}

export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    prev = cur;
  }
  return prev[b.length];
}
