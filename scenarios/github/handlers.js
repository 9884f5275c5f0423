// A GitHub-shaped API for the drill remote (msw 2 handlers): create an issue, search issues.
// GitHub's REST API has no idempotency for creating an issue (no Idempotency-Key, and titles
// need not be unique), so a client that retries a create after a crash makes a second issue.
// The common fix is a marker the client writes into the body (`<!-- crash-drill-key: <id> -->`)
// and a search for it before creating: the marker is then the name the create is idempotent
// by, and this handler commits the issue under it (`commit(..., { key })`). An issue without a
// marker is committed with no key at all, and idempotent-effects fails it.
import { http, HttpResponse } from 'msw';
import { remoteContext } from 'mcp-crash-drill/remote';

const MARKER = /<!-- crash-drill-key: (\S+) -->/;
/** Each drill's issues, in creation order. */
const issuesByDrill = new Map();

function issuesOf(request) {
  const drill = remoteContext(request).drillId ?? '';
  if (!issuesByDrill.has(drill)) issuesByDrill.set(drill, []);
  return issuesByDrill.get(drill);
}

export const handlers = [
  http.post('/repos/:owner/:repo/issues', async ({ request, params }) => {
    const body = await request.json().catch(() => null);
    if (typeof body?.title !== 'string') return HttpResponse.json({ message: 'Validation Failed' }, { status: 422 });
    const repo = `${params.owner}/${params.repo}`;
    const marker = MARKER.exec(body.body ?? '')?.[1];
    const ctx = remoteContext(request);
    const result = ctx.commit({ kind: 'issue', op: 'create issue', target: `${repo}#${body.title}` }, marker ? { key: `issue/${repo}/${marker}` } : {});
    const issues = issuesOf(request);
    const existing = issues.find((i) => i.id === result.effect.id);
    if (existing) return HttpResponse.json(existing, { status: 201 });
    const number = issues.length + 1;
    const issue = {
      id: result.effect.id,
      number,
      title: body.title,
      body: body.body ?? '',
      state: 'open',
      html_url: `https://github.example/${repo}/issues/${number}`,
      repo,
    };
    issues.push(issue);
    return HttpResponse.json(issue, { status: 201 });
  }),
  // GET /search/issues?q=...: the issues of the drill whose body holds the quoted text of q.
  http.get('/search/issues', ({ request }) => {
    const q = new URL(request.url).searchParams.get('q') ?? '';
    const quoted = /"([^"]+)"/.exec(q)?.[1] ?? q;
    const items = issuesOf(request).filter((i) => i.body.includes(quoted));
    return HttpResponse.json({ total_count: items.length, incomplete_results: false, items });
  }),
];
