/** The environment a profile's client gives its server (harness/shared/client-env.ts): an allowlist, or the whole less the redacted names. */
import { describe, expect, it } from 'vitest';
import { CLIENT_PROFILES } from '../../harness/client-profiles/profiles.js';
import { clientEnv } from '../../harness/shared/client-env.js';

const own = { HOME: '/home/u', PATH: '/bin', GITHUB_TOKEN: 'ghp_x', Api_Key: 'k', EDITOR: 'vi', BASH_FUNC: '() { :; }', SHELL: '() { :; }' };

describe('clientEnv', () => {
  it("ts-sdk: the SDK's six names, exported shell functions skipped, the configured ones on top", () => {
    expect(clientEnv(CLIENT_PROFILES['ts-sdk'].spawn.env, own, { EDITOR: 'ed' })).toEqual({ HOME: '/home/u', PATH: '/bin', EDITOR: 'ed' });
  });

  it('gemini-cli: everything but the names that match its patterns, case-insensitively', () => {
    const env = clientEnv(CLIENT_PROFILES['gemini-cli'].spawn.env, own, {});
    expect(Object.keys(env).sort()).toEqual(['BASH_FUNC', 'EDITOR', 'HOME', 'PATH', 'SHELL']);
  });

  it('vscode: the whole environment', () => {
    expect(clientEnv(CLIENT_PROFILES.vscode.spawn.env, own, {})).toEqual(own);
  });
});
