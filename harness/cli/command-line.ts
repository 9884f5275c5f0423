import { basename } from 'node:path';
import type { SubjectSpec } from '../config/index.js';

/**
 * Splits a command line the way a shell would for the simple cases a `--subject` needs: spaces
 * separate words, single quotes keep everything, double quotes keep spaces, a backslash escapes
 * the next character. No variables, globs or pipes: the subject is started without a shell.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
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
  if (quote) throw new Error(`unclosed ${quote} in ${JSON.stringify(line)}`);
  if (word !== null) words.push(word);
  return words;
}

/** A subject from a command line, run from `cwd`, named like a scenario's subject would be. */
export function subjectFromCommandLine(line: string, cwd: string): SubjectSpec {
  const [command, ...args] = splitCommandLine(line);
  if (!command) throw new Error('--subject needs a command');
  const first = args.find((a) => !a.startsWith('-'));
  return { name: basename(first ?? command) || command, command, args, env: {}, cwd };
}
