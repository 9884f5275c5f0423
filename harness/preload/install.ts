/** Installs @mswjs/interceptors' fetch and http(s) interception: a listed origin gets the drill remote's answer. */
import { syncBuiltinESMExports } from 'node:module';
import { BatchInterceptor } from '@mswjs/interceptors';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { PreloadError } from './errors.js';
import { forwardRequest, localResponse, readForwardTarget } from './forward.js';

export interface InstalledIntercept {
  origins: readonly string[];
  dispose(): void;
}

export function installIntercept(origins: readonly string[], env: NodeJS.ProcessEnv = process.env): InstalledIntercept {
  const listed = new Set(origins);
  // Captured before FetchInterceptor replaces fetch, so the forwarded request is not intercepted again.
  const realFetch = globalThis.fetch.bind(globalThis);
  const target = () => readForwardTarget(env);
  const forward = async (request: Request): Promise<Response> => {
    const { url, init } = await forwardRequest(request, target());
    try {
      return localResponse(await realFetch(url, init));
    } catch (cause) {
      throw new PreloadError('PRELOAD_FORWARD_FAILED', `crash-drill preload: ${request.method} ${request.url} -> ${url.href} failed`, { cause });
    }
  };
  const clientRequest = new ClientRequestInterceptor();
  const fetchInterceptor = new FetchInterceptor();
  // Fail as each API fails on the network, so the server's own error handling runs.
  const listen = (interceptor: ClientRequestInterceptor | FetchInterceptor, asNetworkError: (error: Error) => Error) => {
    interceptor.on('request', async ({ request, controller }) => {
      if (!listed.has(new URL(request.url).origin)) return; // not ours: pass through untouched
      try {
        controller.respondWith(await forward(request));
      } catch (error) {
        controller.errorWith(asNetworkError(error instanceof Error ? error : new Error(String(error))));
      }
    });
  };
  listen(clientRequest, (error) => error);
  listen(fetchInterceptor, (error) => new TypeError('fetch failed', { cause: error }));
  const interceptor = new BatchInterceptor({ name: 'crash-drill-intercept', interceptors: [clientRequest, fetchInterceptor] });
  interceptor.apply();
  // Named ESM imports of builtins follow the CommonJS object only when this is called (Node docs,
  // module.syncBuiltinESMExports); the preload runs before the application links.
  syncBuiltinESMExports();
  return {
    origins: [...listed],
    dispose() {
      interceptor.dispose();
      syncBuiltinESMExports();
    },
  };
}
