import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';

/**
 * Makes this process's own TLS clients (the runtime a test inspects Redis through) trust `caFile` besides
 * Node's CA list, as NODE_EXTRA_CA_CERTS does for a CLI child, but now: Node reads NODE_EXTRA_CA_CERTS only
 * at start-up. tls.setDefaultCACertificates is Node ≥ 22.19 / 24.5; the @types/node in use predates it.
 * Returns a function that puts back the list as it was (connections opened after it no longer trust `caFile`).
 */
export function trustCaInThisProcess(caFile: string): () => void {
  const api = tls as unknown as {
    getCACertificates(type: 'default'): string[];
    setDefaultCACertificates(certs: string[]): void;
  };
  const before = api.getCACertificates('default');
  api.setDefaultCACertificates([...before, readFileSync(caFile, 'utf8')]);
  return () => api.setDefaultCACertificates(before);
}
