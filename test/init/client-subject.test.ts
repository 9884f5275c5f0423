// biome-ignore-all lint/suspicious/noTemplateCurlyInString: client configurations hold `${...}` variables as plain text, which is what is tested
/**
 * A client entry as a drill subject: the client's variables become {{env.NAME}} templates (or
 * the workspace folder), a secret-looking value or a credential name becomes a reference, a
 * plain value is copied; what is started now gets the real values. Both ways for each rule.
 */
import { describe, expect, it } from 'vitest';
import { ClientSubjectError, clientSubject } from '../../harness/init/client-subject.js';
import { looksLikeSecret } from '../../harness/util/secrets.js';
import { withEnvValues } from '../../harness/mcp-clients/server.js';
import type { ConfiguredServer } from '../../harness/mcp-clients/types.js';

function server(over: Partial<ConfiguredServer>, env: Record<string, string | null> = {}): ConfiguredServer {
  const base: ConfiguredServer = {
    client: 'vscode',
    name: 's',
    file: '/w/.vscode/mcp.json',
    field: 'servers.s',
    command: 'node',
    args: [],
    cwd: null,
    workspace: '/w',
    variables: 'vscode',
    envNames: Object.keys(env).sort(),
    ...over,
  };
  return withEnvValues(base, env);
}

describe('clientSubject', () => {
  it('turns VS Code variables into templates and values', () => {
    const s = clientSubject(
      server({ args: ['${workspaceFolder}/s.js', '--region', '${env:REGION}'] }, { TOKEN: '${env:GH}' }),
      { REGION: 'eu', GH: 'v' },
      '/h',
    );
    expect(s.args).toEqual(['/w/s.js', '--region', '{{env.REGION}}']);
    expect(s.launchArgs).toEqual(['/w/s.js', '--region', 'eu']);
    expect(s.env).toEqual({ TOKEN: '{{env.GH}}' });
    expect(s.launchEnv).toEqual({ TOKEN: 'v' });
    expect(() => clientSubject(server({ args: ['${input:key}'] }), {}, '/h')).toThrow(ClientSubjectError);
  });

  it('references secret values and credential names, copies the rest; a client without variables keeps `$` literal', () => {
    const s = clientSubject(
      server({ variables: 'none' }, { API_KEY: 'short', LEVEL: 'debug', OTHER: 'ghp_abcdefghijklmnopqrstuvwxyz0123', PRICE: '$5', GONE: null }),
      {},
      '/h',
    );
    expect(s.env).toEqual({ API_KEY: '{{env.API_KEY}}', LEVEL: 'debug', OTHER: '{{env.OTHER}}', PRICE: '$5' });
    expect(s.launchEnv).toEqual({ API_KEY: 'short', LEVEL: 'debug', OTHER: 'ghp_abcdefghijklmnopqrstuvwxyz0123', PRICE: '$5' });
    const shell = clientSubject(server({ variables: 'shell', args: ['--team', '${TEAM:-core}'] }, { T: '$TOKEN' }), { TEAM: '' }, '/h');
    expect([shell.args, shell.launchArgs, shell.env]).toEqual([['--team', 'core'], ['--team', 'core'], { T: '{{env.TOKEN}}' }]);
  });

  it('looksLikeSecret: token shapes and long random strings, not words, paths or numbers', () => {
    for (const v of ['ghp_x', 'sk-abc', 'xoxb-1', 'AKIAABCDEFGHIJKLMNOP', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.x', 'Bearer abc', 'a1B2c3D4e5F6g7H8i9J0k1L2m3'])
      expect(looksLikeSecret(v), v).toBe(true);
    for (const v of ['debug', '/usr/local/share/some/long/path/here', '12345678901234567890123456', 'production-eu-west-1', 'https://example.com'])
      expect(looksLikeSecret(v), v).toBe(false);
  });

  it('a URL with a password or a credential-named query parameter is a secret; a URL without is not', () => {
    for (const v of ['postgres://app:s3cret@db.internal:5432/notes', 'https://api.example.com/v1?api_key=abc', 'https://h.example/x?a=1&access-token=zz'])
      expect(looksLikeSecret(v), v).toBe(true);
    for (const v of ['postgres://db.internal:5432/notes', 'https://user@host.example/x', 'https://example.com/?page=2', 'http://localhost:8080'])
      expect(looksLikeSecret(v), v).toBe(false);
    const s = clientSubject(
      server({ variables: 'none' }, { DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/notes', SERVICE_URL: 'https://example.com/?page=2' }),
      {},
      '/h',
    );
    expect(s.env).toEqual({ DATABASE_URL: '{{env.DATABASE_URL}}', SERVICE_URL: 'https://example.com/?page=2' });
    expect(s.launchEnv.DATABASE_URL).toBe('postgres://app:s3cret@db.internal:5432/notes');
  });

  it('a shell default (${X:-d}) is what the client starts with: written when X is unset here, a reference when X is set, never a secret', () => {
    const entry = () =>
      server(
        { variables: 'shell', args: ['--team', '${TEAM:-core}', '--key', '${KEY:-sk-default-0123456789}'] },
        { LEVEL: '${LEVEL:-info}', API_TOKEN: '${API_TOKEN:-dev-token}' },
      );
    const unset = clientSubject(entry(), { TEAM: '' }, '/h');
    expect(unset.args).toEqual(['--team', 'core', '--key', '{{env.KEY}}']);
    expect(unset.launchArgs).toEqual(['--team', 'core', '--key', 'sk-default-0123456789']);
    expect(unset.env).toEqual({ API_TOKEN: '{{env.API_TOKEN}}', LEVEL: 'info' });
    expect(unset.launchEnv).toEqual({ API_TOKEN: 'dev-token', LEVEL: 'info' });
    const set = clientSubject(entry(), { TEAM: 'ops', LEVEL: 'debug', KEY: 'k', API_TOKEN: 't' }, '/h');
    expect(set.args).toEqual(['--team', '{{env.TEAM}}', '--key', '{{env.KEY}}']);
    expect(set.launchArgs).toEqual(['--team', 'ops', '--key', 'k']);
    expect(set.env).toEqual({ API_TOKEN: '{{env.API_TOKEN}}', LEVEL: '{{env.LEVEL}}' });
    expect(set.launchEnv).toEqual({ API_TOKEN: 't', LEVEL: 'debug' });
  });

  it('a secret written as an arg (a token shape, the value of a credential-named flag) becomes {{env.<ENTRY>_ARG_<i>}}; other args stay', () => {
    const given = [
      'server.js',
      '--api-key',
      'short1',
      '--token=abc',
      '--repo',
      'acme/x',
      'ghp_abcdefghijklmnopqrstuvwxyz0123',
      '--page-size=20',
      '--name',
      'two words',
    ];
    const s = clientSubject(
      server({
        name: 'git-hub',
        variables: 'none',
        args: given,
      }),
      {},
      '/h',
    );
    expect(s.args).toEqual([
      'server.js',
      '--api-key',
      '{{env.GIT_HUB_ARG_2}}',
      '--token={{env.GIT_HUB_ARG_3}}',
      '--repo',
      'acme/x',
      '{{env.GIT_HUB_ARG_6}}',
      '--page-size=20',
      '--name',
      'two words',
    ]);
    // Started as configured: the values themselves.
    expect(s.launchArgs).toEqual(given);
  });
});
