/**
 * Asks for the server command on a terminal, and splits what was typed into a command and
 * its arguments the way a POSIX shell would for plain words, quotes and backslashes (no
 * variables, globs or pipes: the command is spawned directly, never through a shell).
 */
import { createInterface } from 'node:readline/promises';

export async function askServerCommand(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<string[]> {
  const rl = createInterface({ input, output, terminal: true });
  try {
    for (;;) {
      const line = await rl.question('Command that starts your MCP server (e.g. node dist/server.js): ');
      const words = splitCommandLine(line);
      if (words.length > 0) return words;
    }
  } finally {
    rl.close();
  }
}

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
      else cur += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) cur += line[++i];
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}
