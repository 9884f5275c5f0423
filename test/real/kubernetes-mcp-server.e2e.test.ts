/**
 * A real Go server on Kubernetes' client library, drilled over the remote's HTTPS:
 * kubernetes-mcp-server 0.0.67 (containers/kubernetes-mcp-server; client-go v0.37.0 and the Go
 * MCP SDK v1.8.0, as `go version -m` reads from the binary), from the npm package
 * kubernetes-mcp-server-linux-amd64@0.0.67 that ships the Go binary. Its kubeconfig is a
 * `subject.files` template: `{{remote.httpsUrl}}`, `{{remote.caBase64}}` and the session's token.
 * Its `pods_run` tool applies a pod by name (server-side apply: PATCH
 * /api/v1/namespaces/default/pods/<name>), against scenarios/kubernetes/handlers.js.
 *
 * The whole CLI runs in `unshare -n` (a namespace with only loopback, brought up first): the
 * server cannot reach any network, only the remote. The control is the same server pointed at
 * the plain `{{remote.url}}`, as a user would try first: client-go sends no credential to it.
 *
 * Install: .ci/real-servers.sh (.ci/run runs it; the list is test/real/support/native-servers.json),
 * or name a binary in CRASH_DRILL_K8S_MCP. Without one, or without `unshare -n`, the file skips and
 * says why; CRASH_DRILL_REQUIRE_REAL_SERVERS=1 (or CRASH_DRILL_REQUIRE_REAL_K8S=1) makes that a failure.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResults } from '../../harness/results/types.js';
import { packageRoot } from '../../harness/util/paths.js';
import { tempDir } from '../support/temp-dir.js';
import { REMOTE_DRILL_PASS, verdictTable } from '../support/truth-table.js';
import { realBinary, realServersSkip } from './support/native-servers.js';
import { drillOffline } from './support/offline-run.js';

const FILE = 'test/real/kubernetes-mcp-server.e2e.test.ts';
const ROOT = packageRoot();
const BINARY = realBinary('kubernetes-mcp-server');
const HANDLERS = join(ROOT, 'scenarios/kubernetes/handlers.js');
const skip = realServersSkip(FILE, ['kubernetes-mcp-server']);

function scenario(id: string, server: string, ca: string): string {
  return `id: ${id}
subject:
  command: ${JSON.stringify(BINARY)}
  args: [--kubeconfig, "{{files.kubeconfig}}", --toolsets, core, --disable-multi-cluster]
  files:
    kubeconfig: |
      apiVersion: v1
      kind: Config
      clusters:
        - name: drill
          cluster: { server: "${server}"${ca} }
      users:
        - name: drill
          user: { token: "{{session.token}}" }
      contexts:
        - name: drill
          context: { cluster: drill, user: drill, namespace: default }
      current-context: drill
target: { call: pods_run, args: { name: drill-web, image: nginx } }
points: [sent, confirmed, after-response]
modes: [crash]
timeouts: { point: 8000, handshake: 30000 }
remote:
  handlers: ${JSON.stringify(HANDLERS)}
  writes:
    - { method: POST, path: /api/v1/namespaces/:ns/pods }
    - { method: PATCH, path: /api/v1/namespaces/:ns/pods/:name }
    - { method: DELETE, path: /api/v1/namespaces/:ns/pods/:name }
`;
}

interface Journalled {
  method: string;
  path: string;
  credential: string;
  outcome?: string;
  keyedBy?: string;
}

/** The server's requests in a drill's evidence, in order (the harness's own probe left out). */
function requestsOf(out: string, key: string, results: RunResults): Journalled[] {
  const drill = results.drills.find((d) => d.key === key)!;
  const lines = readFileSync(join(out, 'evidence', drill.evidence!.file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const bySeq = new Map<number, Journalled>();
  for (const line of lines) {
    if (line.type !== 'remote') continue;
    const e = line.entry;
    if (e.kind === 'request' && e.attribution !== 'self') bySeq.set(e.seq, { method: e.method, path: e.path, credential: e.credential });
    const r = bySeq.get(e.seq);
    if (r && e.kind === 'commit' && e.keyedBy) r.keyedBy = e.keyedBy;
    if (r && e.kind === 'outcome') r.outcome = `${e.outcome} ${e.status}`;
  }
  return [...bySeq.values()];
}

describe.runIf(skip === null)('kubernetes-mcp-server (client-go) over the drill remote', () => {
  let results: RunResults;
  let out: string;

  beforeAll(async () => {
    const dir = tempDir();
    out = join(dir, 'out');
    writeFileSync(join(dir, 'k8s-https.yaml'), scenario('k8s-https', '{{remote.httpsUrl}}', ', certificate-authority-data: "{{remote.caBase64}}"'));
    writeFileSync(join(dir, 'k8s-plain-http.yaml'), scenario('k8s-plain-http', '{{remote.url}}', ''));
    results = await drillOffline(dir, out);
  }, 240_000);

  it('over HTTPS every drill reaches its point and passes; over plain HTTP the write is never sent with a credential', () => {
    // An unknown drill's checks are left out: the point was never reached, so they judge nothing.
    const table = verdictTable(results.drills, undefined, { unknownWithoutChecks: true });
    const pass = REMOTE_DRILL_PASS;
    expect(table).toEqual({
      'k8s-https/sent/crash': pass,
      'k8s-https/confirmed/crash': pass,
      'k8s-https/after-response/crash': pass,
      // The write is denied (401) before the `sent` gate, which holds only an authorised request.
      'k8s-plain-http/sent/crash': { verdict: 'unknown' },
      'k8s-plain-http/confirmed/crash': { verdict: 'unknown' },
      // The tool call fails with the 401, so nothing was written: every check passes, and shows nothing.
      'k8s-plain-http/after-response/crash': pass,
    });
  });

  it.each(['sent', 'confirmed', 'after-response'])(
    'at %s: discovery, then one apply keyed by the pod name, all with the session token; the retry replays it',
    (point) => {
      const requests = requestsOf(out, `k8s-https/${point}/crash`, results);
      const apply = { method: 'PATCH', path: '/api/v1/namespaces/default/pods/drill-web', credential: 'session', keyedBy: 'name' };
      expect(requests.filter((r) => r.method === 'PATCH')).toEqual([
        { ...apply, outcome: 'committed 201' },
        { ...apply, outcome: 'replayed 200' },
      ]);
      expect(requests.every((r) => r.credential === 'session')).toBe(true);
      expect(requests.map((r) => r.path)).toContain('/api/v1');
      const checks = Object.fromEntries(results.drills.find((d) => d.key === `k8s-https/${point}/crash`)!.checks.map((c) => [c.id, c.summary]));
      expect(checks['idempotent-effects']).toBe('1 effect for 2 keyed writes, keyed by name, after the recovery retry, none duplicated');
      expect(checks['denied-after-revocation']).toMatch(/^the revoked token is denied/);
    },
  );

  it('names its SDK from the binary: github.com/modelcontextprotocol/go-sdk v1.8.0 from its Go build info, recorded in the evidence', () => {
    const drill = results.drills.find((d) => d.key === 'k8s-https/after-response/crash')!;
    const facts = readFileSync(join(out, 'evidence', drill.evidence!.file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'diagnosis-facts' && e.label === 'start');
    expect(facts.runtime).toEqual({
      runtime: 'go',
      version: expect.stringMatching(/^go1\.\d+/),
      exe: realpathSync(BINARY),
      sdks: [{ name: 'github.com/modelcontextprotocol/go-sdk', version: 'v1.8.0', file: realpathSync(BINARY), from: 'Go build info', note: null }],
      reason: null,
    });
  });

  it('over plain HTTP client-go sends no credential: every request is denied', () => {
    const requests = requestsOf(out, 'k8s-plain-http/sent/crash', results);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.map((r) => [r.credential, r.outcome])).toEqual(requests.map(() => ['none', 'denied 401']));
  });
});
