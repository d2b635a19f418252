import http from 'node:http';

/**
 * The floor any client is measured against: a keep-alive node:http POST of a JSON body to billing, with
 * no validation, no retries and no parsing of the answer.
 */
export function bareHttpPost(baseUrl: string, path: string, apiKey: string): (payload: unknown) => Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(`${baseUrl}${path}`);
  return (payload) =>
    new Promise<void>((resolve, reject) => {
      const data = JSON.stringify(payload);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(data),
            'x-service-signature': apiKey,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end(data);
    });
}
