import type { Router } from 'express';

export interface RawRoute {
  method: string;
  path: string;
}

const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * The routes the subgraphs mount themselves (byte streams, signed webhooks), read from the router
 * they were mounted on, so the description lists whatever is there.
 */
export function rawRoutesOf(router: Router): RawRoute[] {
  const routes: RawRoute[] = [];
  for (const layer of (router as unknown as { stack: { route?: { path: string | string[]; methods: Record<string, boolean> } }[] }).stack) {
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    const methods = layer.route.methods._all ? ALL_METHODS : Object.keys(layer.route.methods).filter((method) => method !== 'head' && method !== 'options');
    for (const path of paths) for (const method of methods) routes.push({ method: method.toUpperCase(), path });
  }
  return routes;
}
