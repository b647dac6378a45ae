import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { INTERNAL_IDENTITY_HEADER, operationDigest, signInternalIdentity, verifyInternalIdentity, type SpentTokens } from './auth/internal-token.js';
import { ConfigError } from './config.js';
import { AppError, INTERNAL_ERROR_CODE } from './errors.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { portOwners, type PortName } from './ports.js';
import type { PlatformServices } from './services.js';

/** How long a port call across processes may take before the caller gets 503 port_unavailable. */
const PORT_CALL_TIMEOUT_MS = 10_000;

/** A port token is made out to the owner's ports, never to its GraphQL endpoint. */
const portsAudience = (owner: string) => `${owner}/ports`;
const portOperation = (name: string, body: string) => operationDigest(`port:${name}`, body);

export interface PortPlacement {
  /** Modules connected in this process: they filled their own ports. */
  hosted: readonly string[];
  /** Every module of the platform (a port of a module this build does not have stays absent, as in one process). */
  known: readonly string[];
  /** SUBGRAPH_<NAME>_URL: where the other modules run. */
  urls: Readonly<Record<string, string>>;
}

/**
 * Fills every port this process does not answer itself with a call to its owner's process (split
 * mode); a port whose owner is part of the platform but neither here nor reachable stops the start,
 * so no check is ever skipped because its answer lives elsewhere.
 */
export function connectRemotePorts(services: PlatformServices, placement: PortPlacement): void {
  const problems: string[] = [];
  for (const [name, owner] of Object.entries(portOwners) as [PortName, string][]) {
    if (placement.hosted.includes(owner)) {
      if (!services.ports[name]) problems.push(`port ${name}: module ${owner} runs here but did not fill it in connect()`);
    } else if (placement.known.includes(owner)) {
      const url = placement.urls[owner];
      if (url) (services.ports as Record<PortName, unknown>)[name] = remotePort(name, owner, url, services);
      else problems.push(`port ${name}: answered by the ${owner} subgraph, which does not run in this process: set SUBGRAPH_${owner.toUpperCase()}_URL`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/** A port answered by another process: the arguments (without the EntityManager: no shared transaction) go as JSON that keeps bigint and Date. */
function remotePort(name: PortName, owner: string, subgraphUrl: string, services: PlatformServices) {
  const url = new URL(`internal/ports/${name}`, subgraphUrl.replace(/\/graphql\/?$/, '/'));
  const secret = services.config.secrets.INTERNAL_SECRET;
  return async (_em: unknown, ...args: unknown[]) => {
    const body = encodeJson(args);
    const token = await signInternalIdentity(secret, { subgraph: portsAudience(owner), requestId: randomUUID(), identity: null, ip: null, operation: portOperation(name, body) });
    let answer: { result?: unknown; error?: { status: number; code: string; message: string } };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [INTERNAL_IDENTITY_HEADER]: token },
        body,
        signal: AbortSignal.timeout(PORT_CALL_TIMEOUT_MS),
      });
      answer = decodeJson(await response.text());
    } catch (error) {
      services.log.error({ err: error, port: name, owner }, 'port call to another process failed');
      throw new AppError(503, 'port_unavailable', `The ${owner} service did not answer; try again`);
    }
    if (answer.error) throw new AppError(answer.error.status, answer.error.code, answer.error.message);
    return answer.result;
  };
}

/**
 * POST /internal/ports/:name: the ports of the modules this process runs (a subgraph process its
 * own; the gateway, which runs every module, all of them), for the platform's other processes only.
 */
export function servePorts(hosted: readonly string[], services: PlatformServices, spent: SpentTokens) {
  const reply = (res: Response, status: number, body: unknown) => void res.status(status).type('application/json').send(encodeJson(body));
  const failure = (res: Response, error: AppError) => reply(res, error.status, { error: { status: error.status, code: error.code, message: error.message } });
  return async (req: Request, res: Response) => {
    const name = String(req.params.name) as PortName;
    const module = Object.hasOwn(portOwners, name) ? portOwners[name] : undefined;
    if (!module || !hosted.includes(module)) return failure(res, new AppError(404, 'port_not_found', `No port ${name} is answered here`));
    const body = typeof req.body === 'string' ? req.body : '';
    const token = req.header(INTERNAL_IDENTITY_HEADER);
    if (!token) return failure(res, new AppError(401, 'gateway_token_required', 'Ports are asked by the platform’s own processes only'));
    try {
      await verifyInternalIdentity(services.config.secrets.INTERNAL_SECRET, token, { subgraph: portsAudience(module), operation: portOperation(name, body), spent });
    } catch {
      return failure(res, new AppError(401, 'invalid_gateway_token', 'Invalid gateway token'));
    }
    const port = services.ports[name] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (!port) return failure(res, new AppError(404, 'port_not_found', `No port ${name} is answered here`));
    let args: unknown;
    try {
      args = decodeJson(body);
    } catch {
      args = null;
    }
    if (!Array.isArray(args)) return failure(res, new AppError(400, 'invalid_port_arguments', 'A port call sends its arguments as a JSON array'));
    try {
      reply(res, 200, { result: await port(services.orm.em.fork(), ...args) });
    } catch (error) {
      if (error instanceof AppError) return failure(res, error);
      services.log.error({ err: error, port: name }, 'port failed');
      failure(res, new AppError(500, INTERNAL_ERROR_CODE, 'Internal error'));
    }
  };
}
