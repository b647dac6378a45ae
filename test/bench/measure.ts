import autocannon from 'autocannon';

export interface MeasureOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** Fixed number of requests instead of a duration. */
  amount?: number;
  /** Headers per connection (connection i uses entry i mod length), e.g. one caller per connection. */
  headersPerConnection?: Record<string, string>[];
  /** A different path for every request (the n-th request asks `pathOf(n)`), e.g. to miss a cache keyed by URL. */
  pathOf?: (index: number) => string;
}

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  /**
   * Mean round trip from Little's law (connections / throughput): exact for a closed-loop load
   * and finer than autocannon's whole-millisecond histogram, which rounds sub-millisecond calls to 0.
   */
  meanMs: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** CPU the platform process spent per request during the run (set by the runner, Linux only). */
  platformCpuUsPerRequest?: number;
}

function perConnectionHeaders(list: Record<string, string>[], common: Record<string, string>) {
  let next = 0;
  return (client: { setHeaders(headers: Record<string, string>): void }) => client.setHeaders({ ...common, ...list[next++ % list.length] });
}

function everyRequestOn(pathOf: (index: number) => string) {
  let next = 0;
  return (request: autocannon.Request) => ({ ...request, path: pathOf(next++) });
}

/** One autocannon run against a URL on this machine. */
export async function measure(options: MeasureOptions): Promise<Measurement> {
  const connections = options.connections ?? 10;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 5 }),
    ...(options.headersPerConnection ? { setupClient: perConnectionHeaders(options.headersPerConnection, options.headers ?? {}) } : {}),
    ...(options.pathOf ? { requests: [{ setupRequest: everyRequestOn(options.pathOf) }] } : {}),
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    meanMs: Math.round((connections * 1000 * 1000) / result.requests.average) / 1000,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
