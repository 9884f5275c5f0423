/** The pure parts: ps, lsof and ss output, credential names, server patterns; each both ways. */
import { describe, expect, it } from 'vitest';
import { credentialNames } from '../../harness/live-machine/credentials.js';
import { parseLsof } from '../../harness/live-machine/lsof-output.js';
import { DEFAULT_PATTERNS, matchEvidence, PatternError, userPattern } from '../../harness/live-machine/patterns.js';
import { envNamesAfter, parseEtime, parsePsLine } from '../../harness/live-machine/ps-output.js';
import { parseSsUnix } from '../../harness/live-machine/unix-peers.js';

describe('ps output', () => {
  it('reads a line with sid, keeping the command as it is', () => {
    const p = parsePsLine('root         0 22534 22532 22530 22659 Sl         01:02:03 Mon Nov 30 23:49:57 2026 node  a b', true)!;
    expect(p).toMatchObject({
      user: 'root',
      uid: 0,
      pid: 22534,
      ppid: 22532,
      pgid: 22530,
      sid: 22659,
      state: 'S',
      elapsedMs: 3_723_000,
      command: 'node  a b',
      argv: null,
    });
    expect(p.startTime).toBe(Math.round(Date.parse('Mon Nov 30 23:49:57 2026') / 1000));
  });
  it('rejects a truncated line and a bad etime', () => {
    expect(parsePsLine('root 0 1 0 1 Ss 00:01 Mon Nov 30 23:49:57 2026', true)).toBeNull();
    expect(parseEtime('2-03:04:05')).toBe(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000);
    expect(parseEtime('soon')).toBeNull();
  });
  it('finds environment names after the command, not in it', () => {
    expect(envNamesAfter('node s.js A=1 API_TOKEN=x', 'node s.js A=1')).toEqual(['API_TOKEN']);
  });
});

describe('lsof -F output', () => {
  const text = [
    'p10',
    'f0',
    'au',
    'tunix',
    'i113129',
    'ntype=STREAM ->INO=113128 8097,node,19u',
    'f1',
    'aw',
    'tFIFO',
    'i77',
    'npipe',
    'f2',
    'aw',
    'tCHR',
    'i3',
    'n/dev/null',
    'f5',
    'au',
    'tIPv4',
    'd154163',
    'PTCP',
    'n127.0.0.1:1->127.0.0.1:2',
    'TST=ESTABLISHED',
    'fcwd',
    'tDIR',
    'n/',
  ].join('\n');
  it('names objects as /proc does and keeps peers, access and TCP state', () => {
    expect(parseLsof(text).map((f) => [f.fd, f.kind, f.object, f.access, f.peer, f.tcp?.state ?? null])).toEqual([
      [0, 'socket', 'socket:[113129]', 'rw', 'socket:[113128]', null],
      [1, 'pipe', 'pipe:[77]', 'w', null, null],
      [2, 'null', '/dev/null', 'w', null, null],
      [5, 'socket', 'socket:[154163]', 'rw', null, 'ESTABLISHED'],
    ]);
  });
});

describe('ss -xa output', () => {
  it('maps a socket to its live peer, leaves out a closed peer, counts unread bytes', () => {
    const { peers, unread } = parseSsUnix('u_str ESTAB 12 0 * 91581 * 91580\nu_str ESTAB 0 0 /run/a b.sock 7 * 0\nu_str LISTEN 5 4096 /run/x 9 * 0\n');
    expect([...peers]).toEqual([['socket:[91581]', 'socket:[91580]']]);
    expect([...unread]).toEqual([['socket:[91581]', 12]]);
  });
});

describe('credential names', () => {
  it('names what holds a credential and not what only looks like one', () => {
    expect(
      credentialNames(['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY', 'DB_PASSWORD', 'HOME', 'XAUTHORITY', 'OAUTH_TOKEN_URL', 'PATH']),
    ).toEqual(['AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'GITHUB_TOKEN', 'OPENAI_API_KEY']);
  });
});

describe('server patterns', () => {
  it('match MCP servers and launchers, not ordinary runtimes', () => {
    expect(matchEvidence('npx -y @modelcontextprotocol/server-memory', DEFAULT_PATTERNS)).toEqual([
      'command matches default pattern "@modelcontextprotocol/"',
      'command matches default pattern "npx/uvx of an MCP package"',
    ]);
    expect(matchEvidence('uvx mcp-server-fetch', DEFAULT_PATTERNS)).toEqual([
      'command matches default pattern "mcp"',
      'command matches default pattern "npx/uvx of an MCP package"',
    ]);
    expect(matchEvidence('docker run -i --rm ghcr.io/x/y', DEFAULT_PATTERNS)).toEqual(['command matches default pattern "docker run -i"']);
    expect(matchEvidence('node dist/server.js', DEFAULT_PATTERNS)).toEqual([]);
    expect(matchEvidence('python3 -m http.server', DEFAULT_PATTERNS)).toEqual([]);
    expect(matchEvidence('docker run --rm nginx', DEFAULT_PATTERNS)).toEqual([]);
  });
  it('a bad user regex names where it came from', () => {
    expect(() => userPattern('(x', 'flag', '--match #1')).toThrow(PatternError);
    expect(() => userPattern('(x', 'flag', '--match #1')).toThrow(/^--match #1: expected a regular expression, got "\(x"/);
  });
});
