import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { interceptEnv, parseOrigins, preloadPath, PreloadError } from '../../harness/preload/index.js';
import { baseEnv, ensureBuilt } from './support.js';

beforeAll(() => ensureBuilt());

describe('interceptEnv', () => {
  it('puts the compiled preload first in NODE_OPTIONS and lists the origins', () => {
    const env = interceptEnv(['https://api.example.invalid', 'http://other:8080']);
    expect(env).toEqual({
      NODE_OPTIONS: `--import=${preloadPath()}`,
      CRASH_DRILL_INTERCEPT: 'https://api.example.invalid,http://other:8080',
    });
    expect(isAbsolute(preloadPath())).toBe(true);
    expect(preloadPath()).toMatch(/\/dist\/harness\/preload\/register\.js$/);
    expect(existsSync(preloadPath())).toBe(true);
  });

  it('keeps the options the subject already had, after the preload', () => {
    const env = interceptEnv(['https://a.invalid'], '  --max-old-space-size=256 --enable-source-maps ');
    expect(env.NODE_OPTIONS).toBe(`--import=${preloadPath()} --max-old-space-size=256 --enable-source-maps`);
    expect(interceptEnv(['https://a.invalid'], '').NODE_OPTIONS).toBe(`--import=${preloadPath()}`);
  });

  it('normalises origins (default port, case, trailing slash) and drops duplicates', () => {
    expect(parseOrigins(['https://API.Example.invalid:443/', 'https://api.example.invalid', 'http://x:80', 'http://x:8080'])).toEqual([
      'https://api.example.invalid',
      'http://x',
      'http://x:8080',
    ]);
    expect(parseOrigins(' https://a.invalid , ,http://b.invalid:9 ')).toEqual(['https://a.invalid', 'http://b.invalid:9']);
  });

  it('rejects what is not an http(s) origin, with a stable code', () => {
    for (const bad of ['api.example.invalid', 'ftp://x.invalid', 'https://x.invalid/v1', 'https://x.invalid/?q=1', 'https://u:p@x.invalid']) {
      let caught: unknown;
      try {
        interceptEnv([bad]);
      } catch (error) {
        caught = error;
      }
      expect(caught, bad).toBeInstanceOf(PreloadError);
      expect((caught as PreloadError).code).toBe('PRELOAD_BAD_ORIGIN');
    }
  });

  it('NODE_OPTIONS from interceptEnv is accepted by a real node, and a bad list stops the process', () => {
    const good = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(typeof fetch))'], {
      env: { ...baseEnv(), ...interceptEnv(['https://api.example.invalid']), CRASH_DRILL_REMOTE_URL: 'http://127.0.0.1:9' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(good.status).toBe(0);
    expect(good.stdout).toBe('function'); // and nothing else on stdout from the preload

    const bad = spawnSync(process.execPath, ['-e', 'process.stdout.write("started")'], {
      env: { ...baseEnv(), NODE_OPTIONS: `--import=${preloadPath()}`, CRASH_DRILL_INTERCEPT: 'not a url' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('PRELOAD_BAD_ORIGIN');
  });
});
