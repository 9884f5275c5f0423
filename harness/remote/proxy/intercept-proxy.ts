/**
 * The intercept proxy (proxy-chain): a CONNECT to a listed origin goes to our HTTPS server with a
 * certificate from the run's CA; anything else gets 403 before anything is contacted (`outside`).
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { Server as HttpServer } from 'node:http';
import { RequestError, Server as ProxyChainServer } from 'proxy-chain';
import type { RunCa } from '../tls/run-ca.js';

export const OUTSIDE_REASON = 'outside the drill';

export interface RefusedRequest {
  /** `CONNECT` for a tunnel, else the method of a plain http request. */
  method: string;
  host: string;
  port: number;
  /** The socket the subject opened to the proxy. */
  socket: import('node:net').Socket;
}

export interface InterceptProxyHooks {
  /** The proxy's own listener: each connection attributed at accept (its requests are proxy-chain's). */
  attribute(server: HttpServer): void;
  /** A tunnel's TLS server: attribution (found by the tunnel socket's ports), and its requests into the pipeline as `origin`'s. */
  serve(server: HttpsServer, origin: string): void;
  /** A request refused: journal it. */
  refused(request: RefusedRequest): void;
}

export class InterceptProxy {
  private constructor(
    private readonly proxy: ProxyChainServer,
    private readonly tunnels: HttpsServer[],
    readonly origins: readonly string[],
  ) {}

  /** `http://127.0.0.1:<port>`: the value of HTTPS_PROXY and its kin. */
  get url(): string {
    return `http://127.0.0.1:${this.proxy.port}`;
  }

  get port(): number {
    return this.proxy.port;
  }

  /** `origins`: normalised https origins (harness/preload/origins.ts); http ones are refused like any other. */
  static async start(origins: readonly string[], ca: RunCa, hooks: InterceptProxyHooks): Promise<InterceptProxy> {
    const byOrigin = new Map<string, HttpsServer>();
    for (const origin of origins) {
      const url = new URL(origin);
      if (url.protocol !== 'https:') continue;
      // One TLS server per origin, so a client that sends no SNI (an IP address) still gets the right certificate.
      const context = await ca.contextFor(url.hostname.replace(/^\[|\]$/g, ''));
      const server = createHttpsServer({ SNICallback: (_name, done) => done(null, context) });
      hooks.serve(server, origin);
      byOrigin.set(origin, server);
    }
    const proxy = new ProxyChainServer({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: ({ request, hostname, port, isHttp }) => {
        const server = isHttp ? undefined : byOrigin.get(originOf(hostname, port));
        if (server) return { customConnectServer: server };
        hooks.refused({ method: isHttp ? (request.method ?? 'GET') : 'CONNECT', host: hostname, port, socket: request.socket });
        throw new RequestError(`crash-drill: ${hostname}:${port} is ${OUTSIDE_REASON}`, 403);
      },
    });
    hooks.attribute(proxy.server as HttpServer);
    await proxy.listen();
    return new InterceptProxy(proxy, [...byOrigin.values()], origins);
  }

  /** Ends every tunnel and the listener. */
  async close(): Promise<void> {
    for (const server of this.tunnels) server.closeAllConnections();
    await this.proxy.close(true);
  }
}

/** `https://host[:port]` as WHATWG URL writes an origin (the default port left out). */
function originOf(hostname: string, port: number): string {
  return new URL(`https://${hostname}:${port}`).origin;
}
