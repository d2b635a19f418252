import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TlsCertificates {
  /** The private CA's certificate (PEM): what a client is told to trust (NODE_EXTRA_CA_CERTS). */
  ca: string;
  /** The server's certificate (PEM), signed by the CA, for IP 127.0.0.1 and DNS localhost. */
  cert: string;
  /** The server's private key (PEM, unencrypted). */
  key: string;
}

/**
 * A throwaway private CA and a server certificate it signs, made with the `openssl` CLI in `dir`, valid
 * for two days. P-256 keys: quick to make (milliseconds, where RSA takes a noticeable fraction of a second
 * on a loaded machine). The server certificate names 127.0.0.1 as an IP SAN because Node checks the
 * address a client dialled against the SANs, and a CN alone is not looked at. It may also be presented as
 * a client certificate (clientAuth): Redis Cluster nodes present it to each other on the TLS cluster bus.
 */
export async function createTlsCertificates(dir: string): Promise<TlsCertificates> {
  const files = {
    ca: join(dir, 'ca.pem'),
    caKey: join(dir, 'ca.key'),
    csr: join(dir, 'server.csr'),
    cert: join(dir, 'server.pem'),
    key: join(dir, 'server.key'),
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    files.caKey,
    '-out',
    files.ca,
    '-days',
    '2',
    '-subj',
    '/CN=erp-sync test CA',
  ]);
  await run('openssl', ['req', ...ec, '-keyout', files.key, '-out', files.csr, '-subj', '/CN=127.0.0.1']);
  const ext = join(dir, 'server.ext');
  await writeFile(
    ext,
    [
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      'basicConstraints=CA:FALSE',
      'keyUsage=digitalSignature',
      'extendedKeyUsage=serverAuth,clientAuth',
      '',
    ].join('\n'),
  );
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    files.csr,
    '-CA',
    files.ca,
    '-CAkey',
    files.caKey,
    '-CAcreateserial',
    '-out',
    files.cert,
    '-days',
    '2',
    '-extfile',
    ext,
  ]);
  return { ca: files.ca, cert: files.cert, key: files.key };
}
