// A Kubernetes-shaped API for the drill remote (msw 2 handlers): discovery, and pods create,
// apply, get, list and delete in the core v1 group, enough for client-go (kubectl's library)
// and for kubernetes-mcp-server's pods tools. Kubernetes is idempotent by the name the client
// gives an object, not by a header: a second create of the same pod answers 409 AlreadyExists
// and makes no second pod. So every write commits under its resource's name,
// `remoteContext(request).commit(..., { key })`, and idempotent-effects judges it "keyed by name".
//
// Shapes from the Kubernetes API reference (api-concepts: "Discovery API", "Server-Side Apply",
// the Status kind for errors); a pod here is only the object the client sent plus a uid.
import { http, HttpResponse } from 'msw';
import { remoteContext } from 'mcp-crash-drill/remote';

const VERSION = { major: '1', minor: '33', gitVersion: 'v1.33.0', platform: 'linux/amd64' };
const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const RESOURCES = [
  { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: VERBS, shortNames: ['po'] },
  { name: 'services', singularName: 'service', namespaced: true, kind: 'Service', verbs: VERBS, shortNames: ['svc'] },
  { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: VERBS, shortNames: ['ns'] },
];

/** Each drill's pods, by `<namespace>/<name>`: a retry in the same drill sees what the first server made. */
const podsByDrill = new Map();

function podsOf(request) {
  const drill = remoteContext(request).drillId ?? '';
  let pods = podsByDrill.get(drill);
  if (!pods) {
    pods = new Map();
    podsByDrill.set(drill, pods);
  }
  return pods;
}

function status(code, reason, message) {
  return HttpResponse.json({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }, { status: code });
}

/** The object as stored: what the client sent, its namespace and name set, a uid from the effect. */
function stored(body, namespace, name, effectId) {
  const metadata = { ...(body?.metadata ?? {}), name, namespace, uid: effectId, resourceVersion: '1' };
  return { apiVersion: 'v1', kind: 'Pod', ...body, metadata, status: { phase: 'Pending' } };
}

export const handlers = [
  http.get('/version', () => HttpResponse.json(VERSION)),
  http.get('/api', () =>
    HttpResponse.json({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] }),
  ),
  http.get('/apis', () => HttpResponse.json({ kind: 'APIGroupList', apiVersion: 'v1', groups: [] })),
  http.get('/api/v1', () => HttpResponse.json({ kind: 'APIResourceList', groupVersion: 'v1', resources: RESOURCES })),

  http.get('/api/v1/namespaces/:ns/pods', ({ request, params }) => {
    const items = [...podsOf(request).values()].filter((pod) => pod.metadata.namespace === params.ns);
    return HttpResponse.json({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items });
  }),
  http.get('/api/v1/namespaces/:ns/pods/:name', ({ request, params }) => {
    const pod = podsOf(request).get(`${params.ns}/${params.name}`);
    return pod ? HttpResponse.json(pod) : status(404, 'NotFound', `pods "${params.name}" not found`);
  }),

  // Create: the name is the key. A replay answers 409 AlreadyExists, as the API server does.
  http.post('/api/v1/namespaces/:ns/pods', async ({ request, params }) => {
    const body = await request.json().catch(() => null);
    const name = body?.metadata?.name;
    if (typeof name !== 'string' || name === '') return status(422, 'Invalid', 'Pod "" is invalid: metadata.name: Required value');
    const id = `${params.ns}/${name}`;
    const result = remoteContext(request).commit({ kind: 'pod', op: 'create pod', target: id }, { key: `pods/${id}` });
    if (result.status !== 'created') return status(409, 'AlreadyExists', `pods "${name}" already exists`);
    const pod = stored(body, params.ns, name, result.effect.id);
    podsOf(request).set(id, pod);
    return HttpResponse.json(pod, { status: 201 });
  }),

  // Server-side apply (PATCH, application/apply-patch+yaml): create or update by name, so a
  // replay is the same object again (200), never a second pod.
  http.patch('/api/v1/namespaces/:ns/pods/:name', async ({ request, params }) => {
    const body = await request.json().catch(() => null);
    const id = `${params.ns}/${params.name}`;
    const result = remoteContext(request).commit({ kind: 'pod', op: 'create pod', target: id }, { key: `pods/${id}` });
    if (result.status === 'conflict') return status(409, 'Conflict', `pods "${params.name}" was made by another operation`);
    const pods = podsOf(request);
    const pod = pods.get(id) ?? stored(body, params.ns, params.name, result.effect.id);
    pods.set(id, pod);
    return HttpResponse.json(pod, { status: result.status === 'created' ? 201 : 200 });
  }),

  // Delete: keyed by the name too; a second delete of a pod that is gone is 404, no effect.
  http.delete('/api/v1/namespaces/:ns/pods/:name', ({ request, params }) => {
    const id = `${params.ns}/${params.name}`;
    const pods = podsOf(request);
    const pod = pods.get(id);
    if (!pod) return status(404, 'NotFound', `pods "${params.name}" not found`);
    remoteContext(request).commit({ kind: 'pod', op: 'delete pod', target: id }, { key: `delete/pods/${id}` });
    pods.delete(id);
    return HttpResponse.json(pod);
  }),
];

/** The writes among these routes, for the scenario's `remote.writes`. */
export const writes = [
  { method: 'POST', path: '/api/v1/namespaces/:ns/pods' },
  { method: 'PATCH', path: '/api/v1/namespaces/:ns/pods/:name' },
  { method: 'DELETE', path: '/api/v1/namespaces/:ns/pods/:name' },
];
