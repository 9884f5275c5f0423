/**
 * docs/cli.md is the commands' own `--help` (harness/build/cli-reference.ts): after a change to a
 * command or an option, `npm run docs:cli` must be run, or this fails. Runs the built CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtHelp, CLI_REFERENCE, cliReference, commandNames, type HelpOf } from '../../harness/build/cli-reference.js';
import { packageRoot } from '../../harness/util/paths.js';

const committed = () => readFileSync(join(packageRoot(), CLI_REFERENCE), 'utf8');

describe('the CLI reference (docs/cli.md)', () => {
  it('is exactly what `npm run docs:cli` writes from the built CLI', () => {
    expect(committed()).toBe(cliReference());
  }, 60_000);

  it('has every command the CLI lists, each with its help', () => {
    const names = commandNames(builtHelp([]));
    expect(names).toEqual(expect.arrayContaining(['run', 'baseline', 'check', 'report', 'merge', 'init', 'orphans', 'inspect', 'contain']));
    const doc = committed();
    for (const name of names) {
      expect(doc, name).toContain(`\n## crash-drill ${name}\n\n\`\`\`\nUsage: crash-drill ${name} `);
    }
  }, 60_000);

  it('differs from the committed page when an option is added and the page is not written again', () => {
    // The real help, with one option more on `run`, as a new .option() would print it.
    const added: HelpOf = (args) => {
      const text = builtHelp(args);
      return args[0] === 'run' ? text.replace('\nOptions:\n', '\nOptions:\n  --new-option <x>          an option added without `npm run docs:cli`\n') : text;
    };
    const regenerated = cliReference(added);
    expect(regenerated).not.toBe(committed());
    expect(regenerated.replace('  --new-option <x>          an option added without `npm run docs:cli`\n', '')).toBe(committed());
    // A new command is picked up from the top-level help too.
    const withCommand: HelpOf = (args) =>
      args.length === 0
        ? builtHelp(args).replace('\n  help [command]', '\n  survey [options]   a command added\n  help [command]')
        : args[0] === 'survey'
          ? 'Usage: crash-drill survey [options]\n'
          : builtHelp(args);
    expect(cliReference(withCommand)).toContain('\n## crash-drill survey\n\n```\nUsage: crash-drill survey [options]\n```');
  }, 60_000);

  it('reads command names from the "Commands:" section only, leaving out help', () => {
    const top =
      'Usage: x [options] [command]\n\nOptions:\n  -h, --help   display help\n\nCommands:\n  run [options] [paths...]   run\n                             more words\n  check <path>   check\n  help [command]   help\n';
    expect(commandNames(top)).toEqual(['run', 'check']);
    expect(commandNames('Usage: x\n')).toEqual([]);
  });
});
