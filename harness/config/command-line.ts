import { basename } from 'node:path';
import type { SubjectSpec } from './index.js';
import { UsageError } from '../util/errors.js';

/**
 * Splits a command line the way a POSIX shell would for plain words, quotes and backslashes:
 * spaces separate words, single quotes keep everything, double quotes keep spaces and let a
 * backslash escape only `"`, `\`, `$` and a backquote, a backslash outside quotes escapes the
 * next character. No variables, globs or pipes: the command is started without a shell. Both a
 * `--subject` and the command `init` asks for on a terminal (harness/init/ask-command.ts) are
 * split here.
 *
 * An unclosed quote is the user's mistake, and a UsageError that names the line: the shell would
 * wait for more, and guessing where the quote ends would start another command than the one meant.
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
  if (quote) throw new UsageError(`unclosed ${quote} in ${JSON.stringify(line)}`);
  if (word !== null) words.push(word);
  return words;
}

/** A subject from a command line, run from `cwd`, named like a scenario's subject would be. */
export function subjectFromCommandLine(line: string, cwd: string): SubjectSpec {
  const [command, ...args] = splitCommandLine(line);
  if (!command) throw new UsageError('--subject needs a command');
  const first = args.find((a) => !a.startsWith('-'));
  return { name: basename(first ?? command) || command, command, args, env: {}, cwd };
}
