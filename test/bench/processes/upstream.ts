import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The bench's publisher upstream: a small JSON answer per request, nothing recorded, so that the
 * direct figure measures the HTTP stack and not the test fake's bookkeeping. `?service_ms=N`
 * answers after N ms, as a real API doing real work would.
 */
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = JSON.stringify({ ok: true, path: req.url });
    const answer = () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    const serviceMs = Number(/[?&]service_ms=(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    if (serviceMs > 0) setTimeout(answer, serviceMs);
    else answer();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGINT', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
