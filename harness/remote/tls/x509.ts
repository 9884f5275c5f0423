/**
 * The run's certificates via @peculiar/x509, ECDSA P-256 (every runtime verifies it, cheaper than RSA).
 * Its tsyringe needs a Reflect metadata polyfill first (its README, "Reflect Polyfill Required").
 */
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
/** Certificates start an hour back, so a clock a little behind ours still takes them. */
const BACKDATE_MS = 60 * 60 * 1000;
/** A run's certificates outlive any run: a week. */
const LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface IssuedCert {
  /** PEM of the certificate. */
  cert: string;
  /** PEM (PKCS#8) of its private key; never written to disk. */
  key: string;
}

export interface CertAuthority extends IssuedCert {
  keys: CryptoKeyPair;
  name: string;
}

/** A serial number: 16 random bytes, the top bit clear so it reads as positive (RFC 5280 §4.1.2.2). */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f;
  return bytes.toString('hex');
}

function validity(): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  return { notBefore: new Date(now - BACKDATE_MS), notAfter: new Date(now + LIFETIME_MS) };
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

function generateKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

/** A CA that can sign server certificates only (path length 0). */
export async function makeAuthority(name: string): Promise<CertAuthority> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name}, O=mcp-crash-drill`,
    ...validity(),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem'), key: await keyPem(keys.privateKey), keys, name: cert.subject };
}

/** A server certificate for these host names and IP addresses, signed by the authority. */
export async function issueServerCert(ca: CertAuthority, hosts: { dns?: string[]; ip?: string[] }): Promise<IssuedCert> {
  const keys = await generateKeys();
  const dns = hosts.dns ?? [];
  const ip = hosts.ip ?? [];
  const names = [...dns.map((value) => ({ type: 'dns' as const, value })), ...ip.map((value) => ({ type: 'ip' as const, value }))];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${dns[0] ?? ip[0] ?? 'crash-drill'}`,
    issuer: ca.name,
    ...validity(),
    signingKey: ca.keys.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
      await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem'), key: await keyPem(keys.privateKey) };
}
