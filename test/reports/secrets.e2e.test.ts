/**
 * No secret in any output (harness/util/secrets.ts): one secret of each kind, planted in each place
 * a server's launch can hold one (a scenario's env, `env NAME=value` in a command line, the value of
 * a credential-named flag in both forms, a bare token-shaped arg), with a server that prints all of
 * them on stderr and stdout and stays up after the loss (fake-servers/echoes-launch.ts). Every
 * reporter runs, and every file of the report folder (the evidence logs included) and every console
 * line is searched for each secret and for a distinctive part of it.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/util/paths.js';
import { type CliRun, runCli } from '../support/cli.js';
import { scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const ECHO = join(packageRoot(), 'dist/fake-servers/echoes-launch.js');

/** One secret of each kind; each is made of parts so that no secret scanner flags this file. */
const S = {
  ghp: ['ghp', '_Zq7wYc2Lm9Tn4Rv8Hx1Kd6Pb3Jf5Sg0Ua'].join(''),
  gho: ['gho', '_Ab3Cd4Ef5Gh6Ij7Kl8Mn9Op0Qr1St2Uv'].join(''),
  pat: ['github', '_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv'].join(''),
  slack: ['xox', 'b-1234567890-0987654321-AbCdEfGhIjKlMnOp'].join(''),
  aws: ['AKIA', 'Q2W3E4R5T6Y7U8I9'].join(''),
  google: ['AIza', 'SyD-1a2b3c4d5e6f7g8h9i0jKLMNOPQRSTU'].join(''),
  jwt: ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJjcmFzaC1kcmlsbCIsIm4iOjF9', 'c2lnbmF0dXJlLXZhbHVlLXg'].join('.'),
  pem: ['-----BEGIN PRIVATE', ' KEY-----MIIEvQIBADANBgkqhkiG9w0BAQEFAASC-----END PRIVATE', ' KEY-----'].join(''),
  sk: ['sk', '-proj-Vb8Nm2Qw4Er6Ty8Ui0Op1As3Df5'].join(''),
  /** Plain values with no shape of their own: secrets only by the flag that carries them. */
  tokenFlag: 'plain-token-value-one',
  apiKeyFlag: 'plain-api-key-value-two',
  passwordFlag: 'plain-password-three',
  secretFlag: 'plain-secret-value-four',
  /** A plain value in a credential-named variable. */
  named: 'plain-named-value-five',
};

/** Every output: the console and every file under the report folder. */
function outputs(run: CliRun, out: string): { where: string; text: string }[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(out);
  return [{ where: 'stdout', text: run.stdout }, { where: 'stderr', text: run.stderr }, ...files.map((f) => ({ where: f, text: readFileSync(f, 'utf8') }))];
}

/** Each secret, and a middle part of it that no placeholder contains, found anywhere. */
function leaks(all: { where: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const [kind, secret] of Object.entries(S)) {
    const middle = secret.slice(Math.floor(secret.length / 3), Math.floor(secret.length / 3) + 10);
    for (const { where, text } of all) {
      // JSON escapes a PEM's newlines, HTML its characters: search the text as written, and its JSON form.
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (text.includes(secret) || text.includes(escaped) || text.includes(middle)) found.push(`${kind} in ${where}`);
    }
  }
  return found;
}

const REPORTERS = ['--reporter', 'console,json,junit,markdown,html'];
const EXPECT = { 'exit-on-eof': { deadline: 1000 }, 'no-survivors': { grace: 500 } };

describe('secrets in a server launch', () => {
  it('appear in no report, evidence log or console line, from a scenario file', async () => {
    const dir = tempDir('crash-drill-secrets-');
    const env = {
      OPENAI_API_KEY: S.sk,
      SLACK_BOT_TOKEN: S.slack,
      GOOGLE_VALUE: S.google,
      SOME_CONFIG: S.jwt,
      TLS_PEM: S.pem,
      GH_OAUTH: S.gho,
      DB_PASSWORD: S.named,
      FAKE_ECHO_NAMES: 'OPENAI_API_KEY,SLACK_BOT_TOKEN,GOOGLE_VALUE,SOME_CONFIG,TLS_PEM,GH_OAUTH,DB_PASSWORD,GITHUB_PERSONAL_ACCESS_TOKEN',
    };
    const args = [
      `GITHUB_PERSONAL_ACCESS_TOKEN=${S.ghp}`,
      'node',
      ECHO,
      '--token',
      S.tokenFlag,
      `--api-key=${S.apiKeyFlag}`,
      '--password',
      S.passwordFlag,
      `--secret=${S.secretFlag}`,
      S.pat,
      S.aws,
    ];
    writeFileSync(
      join(dir, 's.yaml'),
      scenarioYaml({
        id: 'secrets',
        subject: { command: 'env', args, env },
        target: { call: 'spawn-helper' },
        points: ['after-response'],
        modes: ['crash'],
        expect: EXPECT,
      }),
    );
    const out = join(dir, 'out');
    const run = await runCli(['run', join(dir, 's.yaml'), '--out', out, ...REPORTERS], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    const all = outputs(run, out);
    expect(all.map((o) => o.where.replace(out, 'out').replace(/evidence\/.*\.jsonl$/, 'evidence/<drill>.jsonl')).sort()).toEqual(
      ['out/evidence/<drill>.jsonl', 'out/junit.xml', 'out/report.html', 'out/results.json', 'out/summary.md', 'stderr', 'stdout'].sort(),
    );
    expect(leaks(all)).toEqual([]);
    // The server did print them all (the test would prove nothing otherwise), each now a placeholder naming where it came from.
    const results = readFileSync(join(out, 'results.json'), 'utf8');
    const drill = JSON.parse(results).drills[0];
    expect(drill.subject).toEqual({
      name: 'echoes-launch.js',
      command: 'env',
      args: [
        'GITHUB_PERSONAL_ACCESS_TOKEN=[redacted:env.GITHUB_PERSONAL_ACCESS_TOKEN]',
        'node',
        ECHO,
        '--token',
        '[redacted:--token]',
        '--api-key=[redacted:--api-key]',
        '--password',
        '[redacted:--password]',
        '--secret=[redacted:--secret]',
        '[redacted:arg 10]',
        '[redacted:arg 11]',
      ],
    });
    const evidence = all.find((o) => o.where.endsWith('.jsonl'))!.text;
    for (const name of ['OPENAI_API_KEY', 'SLACK_BOT_TOKEN', 'GOOGLE_VALUE', 'SOME_CONFIG', 'TLS_PEM', 'GH_OAUTH', 'DB_PASSWORD'])
      expect(evidence, name).toContain(`${name}=[redacted:env.${name}]`);
    expect(evidence).toContain('--api-key=[redacted:--api-key]');
  }, 60_000);

  it('appear in no output from --subject, and name no subject', async () => {
    const dir = tempDir('crash-drill-secrets-');
    writeFileSync(
      join(dir, 's.yaml'),
      scenarioYaml({
        id: 'secrets',
        subject: { command: 'node' },
        target: { call: 'spawn-helper' },
        points: ['after-response'],
        modes: ['crash'],
        expect: EXPECT,
      }),
    );
    const line = `env GITHUB_PERSONAL_ACCESS_TOKEN=${S.ghp} OPENAI_API_KEY=${S.sk} FAKE_ECHO_NAMES=GITHUB_PERSONAL_ACCESS_TOKEN,OPENAI_API_KEY node ${ECHO} --token ${S.tokenFlag} --api-key=${S.apiKeyFlag} ${S.jwt}`;
    const out = join(dir, 'out');
    const run = await runCli(['run', join(dir, 's.yaml'), '--subject', line, '--out', out, ...REPORTERS], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    const all = outputs(run, out);
    expect(leaks(all)).toEqual([]);
    const drill = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).drills[0];
    expect(drill.subject.name).toBe('echoes-launch.js');
    expect(drill.subject.args.slice(0, 2)).toEqual([
      'GITHUB_PERSONAL_ACCESS_TOKEN=[redacted:env.GITHUB_PERSONAL_ACCESS_TOKEN]',
      'OPENAI_API_KEY=[redacted:env.OPENAI_API_KEY]',
    ]);
    expect(all.find((o) => o.where.endsWith('.jsonl'))!.text).toContain('GITHUB_PERSONAL_ACCESS_TOKEN=[redacted:env.GITHUB_PERSONAL_ACCESS_TOKEN]');
  }, 60_000);
});
