import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';

/**
 * Makes this process's own TLS clients (the runtime a test inspects Redis through) trust `caFile` besides
 * Node's CA list, as NODE_EXTRA_CA_CERTS does for a CLI child, but now: Node reads NODE_EXTRA_CA_CERTS only
 * at start-up. tls.setDefaultCACertificates is Node ≥ 22.19 / 24.5; the @types/node in use predates it.
 */
export function trustCaInThisProcess(caFile: string): void {
  const api = tls as unknown as { getCACertificates(type: 'default'): string[]; setDefaultCACertificates(certs: string[]): void };
  api.setDefaultCACertificates([...api.getCACertificates('default'), readFileSync(caFile, 'utf8')]);
}
