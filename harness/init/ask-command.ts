/**
 * Asks for the server command on a terminal, split as `--subject` is (harness/config/command-line.ts):
 * words, quotes, backslashes, no shell. An unclosed quote is refused and asked again.
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
