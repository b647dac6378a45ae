import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

/**
 * The floor for any proxy written in Node on this machine: forwards every request to UPSTREAM_URL
 * through an undici pool and streams the answer back, with no authentication, metering or policy.
 * The bench reports the paid proxy against it as well as against the upstream itself.
 */
const upstreamUrl = process.env.UPSTREAM_URL;
if (!upstreamUrl) throw new Error('UPSTREAM_URL is required');
const pool = new Pool(upstreamUrl, { connections: 128, pipelining: 1 });

const server = createServer(async (req, res) => {
  try {
    const upstream = await pool.request({
      method: req.method as 'GET',
      path: req.url ?? '/',
      headers: { accept: req.headers.accept ?? '*/*' },
      body: req.method === 'GET' || req.method === 'HEAD' ? null : req,
    });
    const contentType = upstream.headers['content-type'];
    const headers: Record<string, string> = typeof contentType === 'string' ? { 'content-type': contentType } : {};
    res.writeHead(upstream.statusCode, headers);
    for await (const chunk of upstream.body) res.write(chunk);
    res.end();
  } catch {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGINT', () => {
  server.closeAllConnections();
  server.close(() => void pool.close().then(() => process.exit(0)));
});
