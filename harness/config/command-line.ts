import type { SubjectSpec } from './types.js';
import { UsageError } from '../util/errors.js';
import { redactCommandLine } from '../util/secrets.js';
import { subjectName } from './subject-name.js';

/**
 * Splits a command line as a POSIX shell does for plain words, quotes and backslashes (no shell
 * runs it). An unclosed quote is a UsageError: guessing where it ends would run another command.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === quote) quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === quote) quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) throw new UsageError(`unclosed ${quote} in ${JSON.stringify(shownLine(line))}`);
  if (word !== null) words.push(word);
  return words;
}

/** Subjects from command lines, each named as its user knows it; two that would share a name differ by pinned version, else by place (`a.js (1)`). */
export function subjectsFromCommandLines(lines: readonly string[], cwd: string): SubjectSpec[] {
  const parsed = lines.map((line) => {
    const [command, ...args] = splitCommandLine(line);
    if (!command) throw new UsageError('--subject needs a command');
    return { command, args, named: subjectName(command, args, cwd) };
  });
  const count = (name: string) => parsed.filter((p) => p.named.name === name).length;
  const names = parsed.map(({ named }) => (count(named.name) > 1 && named.version ? `${named.name}@${named.version}` : named.name));
  return parsed.map(({ command, args }, i) => {
    const name = names.filter((n) => n === names[i]).length > 1 ? `${names[i]} (${names.slice(0, i + 1).filter((n) => n === names[i]).length})` : names[i]!;
    return { name, command, args, env: {}, cwd };
  });
}

/** A line that could not be split, as an error shows it: each word redacted as a command line's are, the spaces kept. */
function shownLine(line: string): string {
  const parts = line.split(/(\s+)/);
  const words = redactCommandLine(parts.filter((_, i) => i % 2 === 0));
  return parts.map((p, i) => (i % 2 === 0 ? words[i / 2]! : p)).join('');
}
