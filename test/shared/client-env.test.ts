/** The environment a profile's client gives its server (harness/shared/client-env.ts): an allowlist, or the whole less the redacted names. */
import { describe, expect, it } from 'vitest';
import { behaviourOf } from '../../harness/client-profiles/profiles.js';
import { clientEnv } from '../../harness/shared/client-env.js';

const own = { HOME: '/home/u', PATH: '/bin', GITHUB_TOKEN: 'ghp_x', Api_Key: 'k', EDITOR: 'vi', BASH_FUNC: '() { :; }', SHELL: '() { :; }' };

describe('clientEnv', () => {
  it("ts-sdk: the SDK's six names, exported shell functions skipped, the configured ones on top", () => {
    expect(clientEnv(behaviourOf('ts-sdk').spawn.env, own, { EDITOR: 'ed' })).toEqual({ HOME: '/home/u', PATH: '/bin', EDITOR: 'ed' });
  });

  it('gemini-cli: everything but the names that match its patterns, case-insensitively', () => {
    const env = clientEnv(behaviourOf('gemini-cli').spawn.env, own, {});
    expect(Object.keys(env).sort()).toEqual(['BASH_FUNC', 'EDITOR', 'HOME', 'PATH', 'SHELL']);
  });

  it('gemini-cli: its filter in its order: exact names, /CERT/i, values that look like secrets, GEMINI_CLI_* and GIT_CONFIG_* kept', () => {
    const akia = `AKIA${'A'.repeat(16)}`;
    const mine = {
      HOME: '/home/u',
      EDITOR: 'vi',
      SSL_CERT_FILE: '/etc/ca.pem',
      DATABASE_URL: 'postgres://db',
      CLIENT_ID: 'c',
      NOTE: akia,
      LINK: 'https://user:pw@example.invalid/',
      GH: `ghp_${'a'.repeat(36)}`,
      SHORT_GH: 'ghp_abc',
      GEMINI_CLI_TOKEN: 't',
      GEMINI_CLI_NOTE: akia,
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: akia,
    };
    expect(Object.keys(clientEnv(behaviourOf('gemini-cli').spawn.env, mine, {})).sort()).toEqual([
      'EDITOR',
      'GEMINI_CLI_NOTE',
      'GEMINI_CLI_TOKEN',
      'GIT_CONFIG_KEY_0',
      'HOME',
      'SHORT_GH',
    ]);
  });

  it('gemini-cli: strict while GITHUB_SHA is set or SURFACE is Github: only the names it always allows, and GEMINI_CLI_* and GIT_CONFIG_*', () => {
    const mine = { HOME: '/home/u', EDITOR: 'vi', GEMINI_CLI_X: '1', GIT_CONFIG_COUNT: '1' };
    const filtered = (extra: Record<string, string>) => Object.keys(clientEnv(behaviourOf('gemini-cli').spawn.env, { ...mine, ...extra }, {})).sort();
    expect(filtered({ GITHUB_SHA: 'abc' })).toEqual(['GEMINI_CLI_X', 'GIT_CONFIG_COUNT', 'HOME']);
    expect(filtered({ SURFACE: 'Github' })).toEqual(['GEMINI_CLI_X', 'GIT_CONFIG_COUNT', 'HOME']);
    expect(filtered({ SURFACE: 'vscode', GITHUB_SHA: '' })).toEqual(['EDITOR', 'GEMINI_CLI_X', 'GITHUB_SHA', 'GIT_CONFIG_COUNT', 'HOME', 'SURFACE']);
  });

  it('vscode: the whole environment', () => {
    expect(clientEnv(behaviourOf('vscode').spawn.env, own, {})).toEqual(own);
  });
});
