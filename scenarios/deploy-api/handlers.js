// A user's own API shape for the drill remote: msw 2 handlers. The remote puts its auth,
// revocation, journal, gates and faults in front of them; `remoteContext(request).commit()`
// gives them the remote's idempotent effect store (one effect per Idempotency-Key).
import { http, HttpResponse } from 'msw';
import { remoteContext } from 'mcp-crash-drill/remote';

export const handlers = [
  http.post('/deploys', async ({ request }) => {
    const body = await request.json();
    if (typeof body?.service !== 'string') return HttpResponse.json({ error: 'service required' }, { status: 400 });
    const result = remoteContext(request).commit({ kind: 'deploy', op: 'deploy', target: body.service });
    if (result.status === 'conflict') return HttpResponse.json({ error: 'key reused' }, { status: 422 });
    return HttpResponse.json({ deployId: result.effect.id }, { status: result.status === 'created' ? 201 : 200 });
  }),
  http.get('/deploys/:id', ({ params }) => HttpResponse.json({ id: params.id, state: 'live' })),
];
