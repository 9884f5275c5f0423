/**
 * The system's CAs for the SSL_CERT_FILE bundle (which replaces the system store for OpenSSL and
 * Go): the first of Go's `certFiles` that exists (crypto/x509/root_linux.go, Go 1.26), else tls.rootCertificates.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

export const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Gentoo, Arch
  '/etc/pki/tls/certs/ca-bundle.crt', // Fedora, RHEL 6
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/pki/tls/cacert.pem', // OpenELEC
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem', // CentOS, RHEL 7
  '/etc/ssl/cert.pem', // Alpine, macOS
] as const;

export interface SystemCas {
  pem: string;
  /** The file read, or `node` for Node's own list. */
  source: string;
}

export function systemCas(candidates: readonly string[] = SYSTEM_BUNDLES): SystemCas {
  for (const file of candidates) {
    try {
      const pem = readFileSync(file, 'utf8');
      if (pem.includes('-----BEGIN CERTIFICATE-----')) return { pem: pem.endsWith('\n') ? pem : `${pem}\n`, source: file };
    } catch {
      // not on this system: the next one
    }
  }
  return { pem: `${rootCertificates.join('\n')}\n`, source: 'node' };
}
