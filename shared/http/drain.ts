import type { Server } from 'node:http';

/**
 * Stops taking requests and lets those in flight finish (a paid call is charged or released, not
 * cut mid-way), for at most `graceMs`; then cuts what is left (cut answers are refunded).
 */
export async function drainHttpServer(httpServer: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
  // A keep-alive connection goes idle once its answer is out: it is closed then, not kept open.
  httpServer.closeIdleConnections();
  const closeIdle = setInterval(() => httpServer.closeIdleConnections(), 50);
  const cut = setTimeout(() => httpServer.closeAllConnections(), graceMs);
  await closed;
  clearInterval(closeIdle);
  clearTimeout(cut);
}
