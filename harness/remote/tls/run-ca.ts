/** A run's CA, in memory only (its key is never written), and the server certificates it issues, each made once. */
import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import { issueServerCert, makeAuthority, type CertAuthority, type IssuedCert } from './x509.js';

/** The names the remote's HTTPS listener answers to: loopback only. */
export const LOOPBACK_HOSTS = { dns: ['localhost'], ip: ['127.0.0.1', '::1'] } as const;

export class RunCa {
  private readonly contexts = new Map<string, Promise<SecureContext>>();

  private constructor(
    private readonly authority: CertAuthority,
    /** The loopback certificate, made with the CA. */
    readonly loopback: IssuedCert,
    /** How long the CA and the loopback certificate took to make, ms. */
    readonly madeInMs: number,
  ) {}

  static async create(label: string): Promise<RunCa> {
    const started = performance.now();
    const authority = await makeAuthority(`crash-drill run ${label}`);
    const loopback = await issueServerCert(authority, { dns: [...LOOPBACK_HOSTS.dns], ip: [...LOOPBACK_HOSTS.ip] });
    return new RunCa(authority, loopback, performance.now() - started);
  }

  /** The CA certificate, PEM: what a client must trust. */
  get certPem(): string {
    return this.authority.cert;
  }

  /** The same, base64 of the PEM: kubeconfig's `certificate-authority-data`. */
  get certBase64(): string {
    return Buffer.from(this.authority.cert).toString('base64');
  }

  /** A TLS context whose certificate names `host` (a DNS name or an IP address), made once per host. */
  contextFor(host: string): Promise<SecureContext> {
    const name = host.toLowerCase();
    let context = this.contexts.get(name);
    if (!context) {
      const hosts = isIP(name) ? { ip: [name] } : { dns: [name] };
      context = issueServerCert(this.authority, hosts).then((issued) => createSecureContext({ key: issued.key, cert: issued.cert }));
      this.contexts.set(name, context);
    }
    return context;
  }
}
