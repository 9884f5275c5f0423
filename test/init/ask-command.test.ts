/**
 * The command `init` asks for on a terminal is split by the same function as `--subject`
 * (harness/config/command-line.ts); the CLI's side of an unclosed quote is in
 * test/cli/compare.e2e.test.ts.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../harness/config/command-line.js';
import { UsageError } from '../../harness/util/errors.js';
import { askServerCommand } from '../../harness/init/ask-command.js';
import { until } from '../support/until.js';

function terminal(): { input: PassThrough; output: PassThrough; written: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (d: Buffer) => (text += d.toString()));
  return { input, output, written: () => text };
}

describe('the server command init asks for', () => {
  it('refuses a line with an unclosed quote, naming it, and asks again', async () => {
    const { input, output, written } = terminal();
    const answer = askServerCommand(input, output);
    input.write(`node "dist/my server.js\n`);
    // A line typed before the prompt is asked again would be lost, as on a real terminal.
    await until('the prompt asked again', () => written().match(/Command that starts your MCP server/g)?.length === 2);
    input.write(`node "dist/my server.js"\n`);
    expect(await answer).toEqual(['node', 'dist/my server.js']);
    expect(written()).toContain(`unclosed " in "node \\"dist/my server.js"`);
    expect(written().match(/Command that starts your MCP server/g)).toHaveLength(2);
  });

  it('takes a line whose quotes are closed at once', async () => {
    const { input, output, written } = terminal();
    const answer = askServerCommand(input, output);
    input.write(`python3 -m 'my server' --flag\n`);
    expect(await answer).toEqual(['python3', '-m', 'my server', '--flag']);
    expect(written()).not.toContain('unclosed');
  });
});

describe('splitCommandLine', () => {
  it('throws a UsageError naming the line for an unclosed quote of either kind', () => {
    expect(() => splitCommandLine(`node 'x`)).toThrow(new UsageError(`unclosed ' in "node 'x"`));
    expect(() => splitCommandLine(`node "x`)).toThrow(new UsageError(`unclosed " in "node \\"x"`));
    // The line may hold a token: it is named with its secrets redacted.
    expect(() => splitCommandLine(`node s.js --token plain-value-1 "x`)).toThrow(new UsageError(`unclosed " in "node s.js --token [redacted:--token] \\"x"`));
  });

  it('lets a backslash in double quotes escape only what a POSIX shell lets it escape', () => {
    expect(splitCommandLine(String.raw`node "C:\dir" "a\"b" "\$HOME" 'c\d'`)).toEqual(['node', String.raw`C:\dir`, 'a"b', '$HOME', String.raw`c\d`]);
  });
});
