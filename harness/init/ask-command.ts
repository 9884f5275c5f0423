/**
 * Asks for the server command on a terminal, and splits what was typed into a command and
 * its arguments the way `--subject` is split (harness/config/command-line.ts): plain words, quotes
 * and backslashes, no variables, globs or pipes (the command is spawned directly, never through
 * a shell). A line with an unclosed quote is refused with the same message and asked again.
 */
import { createInterface } from 'node:readline/promises';
import { splitCommandLine } from '../config/index.js';
import { UsageError } from '../util/errors.js';

export async function askServerCommand(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<string[]> {
  const rl = createInterface({ input, output, terminal: true });
  try {
    for (;;) {
      const line = await rl.question('Command that starts your MCP server (e.g. node dist/server.js): ');
      let words: string[];
      try {
        words = splitCommandLine(line);
      } catch (err) {
        if (!(err instanceof UsageError)) throw err;
        output.write(`${err.message}\n`);
        continue;
      }
      if (words.length > 0) return words;
    }
  } finally {
    rl.close();
  }
}
