// biome-ignore-all lint/suspicious/noTemplateCurlyInString: client configurations hold `${...}` variables as plain text, which is what is tested
/**
 * Each entry as an exact matcher, on the argv forms a client's spawn takes: direct, PATH
 * lookup and symlinks, a relative command under cwd, a shebang script, a version manager's
 * shim, npx (npm's retitled `npm exec`), uvx, docker, client variables; and each shown not to
 * match what differs by one arg.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigMatcher } from '../../harness/mcp-clients/matcher.js';
import type { ConfiguredServer } from '../../harness/mcp-clients/types.js';
import { tempDir } from '../support/temp-dir.js';

const dir = tempDir('crash-drill-matcher-');
mkdirSync(join(dir, 'bin'));
mkdirSync(join(dir, 'real'));
writeFileSync(join(dir, 'real', 'srv'), '#!/bin/sh\nexit 0\n');
chmodSync(join(dir, 'real', 'srv'), 0o755);
symlinkSync(join(dir, 'real', 'srv'), join(dir, 'bin', 'srv'));

function entry(over: Partial<ConfiguredServer>): ConfiguredServer {
  return {
    client: 'claude-desktop',
    name: 'e',
    file: '/f.json',
    field: 'mcpServers.e',
    command: 'node',
    args: [],
    cwd: null,
    workspace: null,
    variables: 'none',
    envNames: [],
    ...over,
  };
}
const env = { PATH: `${join(dir, 'bin')}:/usr/bin:/bin`, REGION: 'eu' };
const how = (e: Partial<ConfiguredServer>, argv: string[]) => new ConfigMatcher([entry(e)], { env, home: '/home/u' }).match(argv).map((m) => m.how);

describe('config matchers', () => {
  it('direct: the same program by name, PATH or real path, and exactly the args', () => {
    expect(how({ command: 'srv', args: ['--x'] }, ['srv', '--x'])).toEqual(['command and args match exactly']);
    expect(how({ command: 'srv', args: ['--x'] }, [join(dir, 'real', 'srv'), '--x'])).toEqual(['command and args match exactly']);
    expect(how({ command: 'srv', args: ['--x'] }, ['srv', '--x', '--y'])).toEqual([]);
    expect(how({ command: 'srv', args: ['--x'] }, ['srv', '--y'])).toEqual([]);
    expect(how({ command: 'srv', args: ['--x'] }, ['other', '--x'])).toEqual([]);
  });

  it('a relative command resolves from the entry cwd', () => {
    expect(how({ command: './srv', cwd: join(dir, 'real') }, [join(dir, 'real', 'srv')])).toEqual(['command and args match exactly']);
    expect(how({ command: './srv', cwd: join(dir, 'bin') }, [join(dir, 'elsewhere', 'srv')])).toEqual([]);
  });

  it('a shebang script runs as <interpreter> <script> args; a shim execs the real program', () => {
    expect(how({ command: join(dir, 'real', 'srv'), args: ['a'] }, ['/bin/sh', join(dir, 'real', 'srv'), 'a'])).toEqual([
      'script and args match exactly (run by its interpreter sh)',
    ]);
    expect(how({ command: 'python3', args: ['server.py'] }, ['/root/.pyenv/versions/3.11.7/bin/python3', 'server.py'])).toEqual([
      'command and args match exactly; python3 started as /root/.pyenv/versions/3.11.7/bin/python3',
    ]);
    expect(how({ command: 'python3', args: ['server.py'] }, ['/usr/bin/python3', 'other.py'])).toEqual([]);
  });

  it('npx: npm retitles itself `npm exec <package> <args>`, its own flags dropped', () => {
    const npx = { command: 'npx', args: ['-y', '--registry', 'https://r.invalid', '@acme/files', '/data'] };
    expect(how(npx, ['npm exec @acme/files /data', '', ''])).toEqual(['npx launcher: `npm exec` with the package and args match exactly']);
    expect(how(npx, ['npm exec @acme/files /other'])).toEqual([]);
  });

  it('uvx hands over to `uv tool uvx`; docker keeps its argv and names the container', () => {
    expect(how({ command: 'uvx', args: ['notes-server', '--db', 'x'] }, ['/home/u/.local/bin/uv', 'tool', 'uvx', 'notes-server', '--db', 'x'])).toEqual([
      'uvx launcher: `uv tool uvx` with the package and args match exactly',
    ]);
    expect(how({ command: 'uvx', args: ['notes-server'] }, ['uv', 'tool', 'uvx', 'other-server'])).toEqual([]);
    expect(how({ command: 'docker', args: ['run', '-i', '--rm', 'acme/files'] }, ['docker', 'run', '-i', '--rm', 'acme/files'])).toEqual([
      'command and args match exactly (the docker CLI; the server runs in its container)',
    ]);
  });

  it("expands the client's variables: known ones exactly, unknown ones match any value and say so", () => {
    const vs = { variables: 'vscode' as const, workspace: '/w', args: ['${workspaceFolder}/s.js', '--region', '${env:REGION}', '--key', '${input:k}'] };
    expect(how(vs, ['node', '/w/s.js', '--region', 'eu', '--key', 'anything'])).toEqual(['command and args match exactly; ${input:k} matched any value']);
    expect(how(vs, ['node', '/w/s.js', '--region', 'us', '--key', 'anything'])).toEqual([]);
    const shell = { variables: 'shell' as const, args: ['--team', '${TEAM:-core}', '$REGION'] };
    expect(how(shell, ['node', '--team', 'core', 'eu'])).toEqual(['command and args match exactly']);
    expect(how(shell, ['node', '--team', 'ops', 'eu'])).toEqual([]);
    // A client that expands nothing: the text is literal.
    expect(how({ args: ['${REGION}'] }, ['node', '${REGION}'])).toEqual(['command and args match exactly']);
    expect(how({ args: ['${REGION}'] }, ['node', 'eu'])).toEqual([]);
  });

  it('a near miss names the entry and where the args differ, never the args', () => {
    const m = new ConfigMatcher([entry({ name: 'files', args: ['server.js', '--token-file', 'secret-path'] })], { env, home: '/h' });
    expect(m.nearMiss(['node', 'server.js', '--other'])).toBe(
      'claude-desktop: files starts node too, but args[1] differs (the entry has 3 args, the process 2)',
    );
    expect(m.nearMiss(['python3', 'server.js'])).toBeNull();
  });

  it('a command line seen whole (ps): entries whose command or args hold a space match on the joined line, and only exactly', () => {
    const m = new ConfigMatcher(
      [
        entry({ name: 'spaced', args: ['/Users/u/Library/Application Support/x/server.js', '--name', 'two words'] }),
        entry({ name: 'app', command: join(dir, 'real', 'srv'), args: ['--x'] }),
        entry({ name: 'plain', args: ['plain.js'] }),
      ],
      { env, home: '/h' },
    );
    const names = (line: string) => m.matchLine(line).map((x) => `${x.name}: ${x.how}`);
    expect(names('node /Users/u/Library/Application Support/x/server.js --name two words')).toEqual(['spaced: command and args match exactly']);
    expect(names(`/bin/sh ${join(dir, 'real', 'srv')} --x`)).toEqual(['app: script and args match exactly (run by its interpreter sh)']);
    expect(names('node plain.js')).toEqual(['plain: command and args match exactly']);
    // Split on spaces alone, the same line matches nothing.
    expect(m.match('node /Users/u/Library/Application Support/x/server.js --name two words'.split(' '))).toEqual([]);
    // One word off is no match.
    expect(names('node /Users/u/Library/Application Support/x/server.js --name two other')).toEqual([]);
    expect(names('node /Users/u/Library/Application Support/y/server.js --name two words')).toEqual([]);
    expect(names('python3 /Users/u/Library/Application Support/x/server.js --name two words')).toEqual([]);
    // A process with its argv (/proc) is matched on it.
    expect(m.matchProcess({ pid: 1, argv: ['node', 'plain.js'], command: 'node plain.js' }).map((x) => x.name)).toEqual(['plain']);
  });

  it("two projects' entries with the same command line: the process's folder tells them apart, and never drops the only match", () => {
    mkdirSync(join(dir, 'proj-a'), { recursive: true });
    mkdirSync(join(dir, 'proj-b'), { recursive: true });
    const m = new ConfigMatcher(
      [
        entry({ client: 'claude-code', name: 'a', args: ['build/index.js'], workspace: join(dir, 'proj-a') }),
        entry({ client: 'claude-code', name: 'b', args: ['build/index.js'], workspace: join(dir, 'proj-b') }),
        entry({ client: 'codex', name: 'solo', args: ['solo.js'], cwd: join(dir, 'proj-a') }),
      ],
      { env, home: '/h' },
    );
    const argv = ['node', 'build/index.js'];
    const names = (cwd: string | null) => m.match(argv, cwd).map((x) => `${x.name}: ${x.how}`);
    expect(names(join(dir, 'proj-b'))).toEqual([
      "b: command and args match exactly; it runs in this entry's folder (1 other entry starts the same command line elsewhere)",
    ]);
    expect(names(join(dir, 'proj-a'))).toEqual([
      "a: command and args match exactly; it runs in this entry's folder (1 other entry starts the same command line elsewhere)",
    ]);
    // Folder unknown, or neither entry's: both stay.
    expect(names(null)).toEqual(['a: command and args match exactly', 'b: command and args match exactly']);
    expect(names(join(dir, 'bin'))).toEqual(['a: command and args match exactly', 'b: command and args match exactly']);
    // One match is kept wherever the process runs (a server may change its folder).
    expect(m.match(['node', 'solo.js'], join(dir, 'proj-b')).map((x) => x.name)).toEqual(['solo']);
    // matchProcess asks for the folder only when it helps.
    const asked: number[] = [];
    const folderOf = (pid: number) => {
      asked.push(pid);
      return join(dir, 'proj-b');
    };
    expect(m.matchProcess({ pid: 7, argv, command: argv.join(' ') }, folderOf).map((x) => x.name)).toEqual(['b']);
    expect(m.matchProcess({ pid: 8, argv: ['node', 'solo.js'], command: 'node solo.js' }, folderOf).map((x) => x.name)).toEqual(['solo']);
    expect(asked).toEqual([7]);
  });
});
