import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

export interface TcpRelay {
  /** host:port of the relay, to put in place of the target's. */
  address: string;
  /** Connections the relay has accepted so far, refused ones included. */
  accepted: number;
  /** Bytes clients sent on silenced connections, which went nowhere. */
  swallowed: number;
  /**
   * Every connection open now goes silent, as behind a partition or a NAT that forgot the flow:
   * both sockets stay open, nothing more is forwarded either way. Later connections are relayed.
   */
  silence(): void;
  /** The next `count` connections are reset as soon as they are accepted, as a port nobody listens on would. */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

/** A TCP relay to `target` (host:port) that a test can cut off without either end being told. */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const open = new Set<{ client: Socket; upstream: Socket; silent: boolean }>();
  let refusals = 0;
  // Half-open allowed: a silenced connection must not answer a client's goodbye with one of its own.
  const server = createServer({ allowHalfOpen: true }, (client) => {
    relay.accepted++;
    if (refusals > 0) {
      refusals--;
      return void client.resetAndDestroy();
    }
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream, silent: false };
    open.add(pair);
    client.on('data', (chunk: Buffer) => (pair.silent ? (relay.swallowed += chunk.length) : upstream.write(chunk)));
    upstream.on('data', (chunk: Buffer) => pair.silent || client.write(chunk));
    const drop = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    // On a silenced connection, one end going away is not told to the other either.
    for (const socket of [client, upstream]) for (const event of ['error', 'close']) socket.on(event, () => pair.silent || drop());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relay: TcpRelay = {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: 0,
    swallowed: 0,
    silence() {
      for (const pair of open) pair.silent = true;
    },
    refuseNext(count) {
      refusals = count;
    },
    close() {
      for (const { client, upstream } of open) {
        client.destroy();
        upstream.destroy();
      }
      open.clear();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return relay;
}
