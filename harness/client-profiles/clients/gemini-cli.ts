/**
 * Gemini CLI: its stop is its pinned TypeScript SDK's `close()`, so it changes with the SDK in
 * its package-lock.json (read at each tag of google-gemini/gemini-cli): 1.23.0 up to v0.26 and
 * again from fa975395bc (v0.52.0), a lone SIGTERM; 1.25.3 from 25c0802b52 (v0.27.0) and 1.26.0
 * from 02da5ebbc1, to v0.51, the SDK's ladder. Its mcp-client and environmentSanitization modules are
 * (packages/core/src/tools/ and packages/core/src/services/) the same at v0.51.0 and at 5411f113.
 */
import type { ClientBehaviour, ClientProfile, SpawnFacts } from '../types.js';
import { cited, NODE_STDIN_ON_EXIT, NODE_STDIO_SOCKETPAIR, signal, TS_SDK_LADDER } from './steps.js';

const REPO = 'google-gemini/gemini-cli';
const CLIENT = { repo: REPO, where: 'packages/core/src/tools/mcp-client.ts' };
const SANITIZE = { repo: REPO, where: 'packages/core/src/services/environmentSanitization.ts' };

/** sanitizeEnvironment with redaction on, as createTransport calls it; its rules in its order. */
const SPAWN: SpawnFacts = {
  group: 'same',
  env: {
    kind: 'whole',
    rules: [
      { keep: true, prefixes: ['GEMINI_CLI_'] },
      {
        keep: false,
        values: [
          '-----BEGIN (RSA|OPENSSH|EC|PGP) PRIVATE KEY-----',
          '-----BEGIN CERTIFICATE-----',
          '(https?|ftp|smtp)://[^:\\s]{1,1024}:[^@\\s]{1,1024}@',
          '(ghp|gho|ghu|ghs|ghr|github_pat)_[a-z0-9_]{36,}',
          'AIzaSy[a-z0-9_\\\\-]{33}',
          'AKIA[A-Z0-9]{16}',
          'eyJ[a-z0-9_-]{0,10240}\\.[a-z0-9_-]{0,10240}\\.[a-z0-9_-]{0,10240}',
          '(s|r)k_(live|test)_[0-9a-z]{24}',
          'xox[abpr]-[a-z0-9-]+',
        ],
      },
      { keep: true, prefixes: ['GIT_CONFIG_'] },
      {
        keep: true,
        names: [
          'PATH',
          'SYSTEMROOT',
          'COMSPEC',
          'PATHEXT',
          'WINDIR',
          'TEMP',
          'TMP',
          'USERPROFILE',
          'SYSTEMDRIVE',
          'HOME',
          'LANG',
          'SHELL',
          'TMPDIR',
          'USER',
          'LOGNAME',
        ]
          .concat(['TERM', 'COLORTERM', 'ADDITIONAL_CONTEXT', 'AVAILABLE_LABELS', 'BRANCH_NAME', 'DESCRIPTION', 'EVENT_NAME', 'GITHUB_ENV', 'IS_PULL_REQUEST'])
          .concat(['ISSUES_TO_TRIAGE', 'ISSUE_BODY', 'ISSUE_NUMBER', 'ISSUE_TITLE', 'PULL_REQUEST_NUMBER', 'REPOSITORY', 'TITLE', 'TRIGGERING_ACTOR']),
      },
      {
        keep: false,
        names: [
          'CLIENT_ID',
          'DB_URI',
          'CONNECTION_STRING',
          'AWS_DEFAULT_REGION',
          'AZURE_CLIENT_ID',
          'AZURE_TENANT_ID',
          'SLACK_WEBHOOK_URL',
          'TWILIO_ACCOUNT_SID',
        ].concat(['DATABASE_URL', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_ACCOUNT', 'FIREBASE_PROJECT_ID']),
      },
      { keep: false, whenStrict: true },
      { keep: false, containing: ['TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'KEY', 'AUTH', 'CREDENTIAL', 'CREDS', 'PRIVATE', 'CERT'] },
    ],
    strictWhen: [{ name: 'GITHUB_SHA' }, { name: 'SURFACE', value: 'Github' }],
  },
  parentDeathSignal: null,
  stderr: 'pipe-unread',
  stdio: 'socketpair',
};

function sources(version: string, sdk: string, sdkWhat: string): ClientBehaviour['sources'] {
  return {
    spawn: cited(
      {
        ...CLIENT,
        what: "createTransport: new StdioClientTransport({ command, args, env: finalEnv, cwd, stderr: 'pipe' }); stderr read only in debug mode",
        version,
      },
      NODE_STDIO_SOCKETPAIR,
    ),
    env: cited(
      {
        ...CLIENT,
        what: 'createTransport: finalEnv = the marker, the extension env, sanitizeEnvironment(process.env + extension env), the configured env',
        version,
      },
      {
        ...SANITIZE,
        what: 'sanitizeEnvironment, shouldRedactEnvironmentVariable, ALWAYS_ALLOWED_ENVIRONMENT_VARIABLES, NEVER_ALLOWED_ENVIRONMENT_VARIABLES, NEVER_ALLOWED_NAME_PATTERNS, NEVER_ALLOWED_VALUE_PATTERNS',
        version,
      },
    ),
    stop: cited(
      { ...CLIENT, what: 'McpClient.disconnect: await transport.close(), then client.close()', version },
      { repo: REPO, where: 'package-lock.json', what: `node_modules/@modelcontextprotocol/sdk ${sdk}`, version },
      { repo: 'modelcontextprotocol/typescript-sdk', where: 'src/client/stdio.ts', what: sdkWhat, version: sdk },
      NODE_STDIN_ON_EXIT,
    ),
    crash: cited({ ...CLIENT, what: 'createTransport: no detached, no parent-death signal; only the pipes tie the server to the client', version }),
    abandon: { unsourced: 'no path that drops a server without disconnect() was read' },
  };
}

const newest: ClientBehaviour = {
  name: 'gemini-cli',
  versions: {
    label: '>=0.52',
    first: '0.52',
    last: '0.56',
    since: 'fa975395bc (first in v0.52.0): package-lock.json back to @modelcontextprotocol/sdk 1.23.0',
  },
  client: 'Gemini CLI v0.52.0 to v0.56.0 (and main at 5411f113) on @modelcontextprotocol/sdk 1.23.0',
  spawn: SPAWN,
  stop: [signal('SIGTERM', 'child')],
  closesStdinWhenChildExits: true,
  crash: 'eof',
  abandons: null,
  observed: false,
  sources: sources('5411f113', '1.23.0', 'close(): aborts the spawn signal, so Node sends SIGTERM to the child; nothing else'),
};

const ladder: ClientBehaviour = {
  ...newest,
  versions: {
    label: '0.27-0.51',
    first: '0.27',
    last: '0.51',
    since: '25c0802b52 (first in v0.27.0): package-lock.json to @modelcontextprotocol/sdk 1.25.3; 02da5ebbc1 to 1.26.0',
  },
  // The range is the SDK's; the env filter is v0.51.0's. Earlier in the range it differs (v0.27.0
  // passes createTransport's sanitizationConfig as given, without forcing redaction on).
  client: 'Gemini CLI v0.27.0 to v0.51.0 on @modelcontextprotocol/sdk 1.25.3, then 1.26.0 (env filter as at v0.51.0)',
  stop: TS_SDK_LADDER,
  sources: sources('v0.51.0', '1.26.0', 'close(): stdin end, 2 s, SIGTERM, 2 s, SIGKILL to the direct child (since 1.24.0, #1200)'),
};

export const geminiCli: ClientProfile = {
  name: 'gemini-cli',
  client: 'Gemini CLI (packages/core/src/tools/mcp-client.ts)',
  behaviours: [newest, ladder],
};
