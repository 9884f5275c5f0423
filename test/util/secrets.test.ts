/** What counts as a secret, by name and by value, and the placeholders that replace one (harness/util/secrets.ts). */
import { describe, expect, it } from 'vitest';
import { argSecrets, envSecrets, isCredentialName, redact, redactArgv, redactShapes } from '../../harness/util/secrets.js';

/** Token-shaped values, made of parts so that no scanner flags this file. */
const GHP = ['ghp', '_0123456789abcdefghijABCD'].join('');
const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'abcdefghij'].join('.');

describe('secrets', () => {
  it('finds credentials by name, not the names that only look like one', () => {
    for (const n of ['GITHUB_TOKEN', 'api_key', 'DB_PASSWORD', 'AWS_SECRET_ACCESS_KEY', 'GITHUB_PAT', 'PAT']) expect(isCredentialName(n), n).toBe(true);
    for (const n of ['GIT_AUTHOR_NAME', 'XAUTHORITY', 'OAUTH_TOKEN_URL', 'LOG_LEVEL', 'PATH']) expect(isCredentialName(n), n).toBe(false);
  });

  it('finds each place an argv holds one, and names it', () => {
    expect(
      argSecrets(['GITHUB_TOKEN=abcdefgh12', 'node', 's.js', '--token', 'plainvalue1', '--api-key=plainvalue2', '--level', 'debugging', GHP, '--x={{env.K}}']),
    ).toEqual([
      { value: 'abcdefgh12', from: 'env.GITHUB_TOKEN' },
      { value: 'plainvalue1', from: '--token' },
      { value: 'plainvalue2', from: '--api-key' },
      { value: GHP, from: 'arg 9' },
    ]);
    expect(envSecrets({ API_KEY: 'plainvalue3', CONFIG: JWT, LEVEL: 'debugging', SHORT_TOKEN: 'abc' })).toEqual([
      { value: 'plainvalue3', from: 'env.API_KEY' },
      { value: JWT, from: 'env.CONFIG' },
    ]);
  });

  it('takes a long random value for a key, and an identifier for none', () => {
    expect(argSecrets(['a1B2c3D4e5F6g7H8i9J0k1L2m3', 'unprivileged-0b8f6c1e-4a5d-4f1e-9c2b-7d3e8a9f0b1c', '0b8f6c1e-4a5d-4f1e-9c2b-7d3e8a9f0b1c'])).toEqual([
      { value: 'a1B2c3D4e5F6g7H8i9J0k1L2m3', from: 'arg 1' },
    ]);
  });

  it('redacts known values by where they came from, and token shapes in any text by kind', () => {
    expect(redactArgv(['--token', 'plainvalue1', `--x=${GHP}`])).toEqual(['--token', '[redacted:--token]', '--x=[redacted:--x]']);
    expect(redact(`auth ${GHP} and plainvalue9`, [{ value: 'plainvalue9', from: 'env.K' }])).toBe('auth [redacted:github-token] and [redacted:env.K]');
    expect(redactShapes(`Authorization: Bearer ${JWT}`)).toBe('Authorization: Bearer [redacted:jwt]');
    expect(redactShapes('postgres://app:s3cretpw@db:5432/x')).toBe('postgres://app:[redacted:url-password]@db:5432/x');
    expect(redactShapes(['-----BEGIN RSA PRIVATE', ' KEY-----\nMIIB\n-----END RSA PRIVATE', ' KEY----- after'].join(''))).toBe('[redacted:private-key] after');
    expect(redactShapes('sha256 0f3a9c1d2e4b5a6978800112233445566778899aabbccddeeff00112233 and /usr/lib/task-runner-12345678901234567')).toBe(
      'sha256 0f3a9c1d2e4b5a6978800112233445566778899aabbccddeeff00112233 and /usr/lib/task-runner-12345678901234567',
    );
  });
});
