import DataLoader from 'dataloader';
import { loader, type RequestContext } from '../../shared/context.js';
import { dataPlaneOf } from './data-plane/open-data-plane.js';
import { databaseSizes } from './data-plane/provision.js';
import { DatabaseBranch } from './entities/branch.js';
import { ManagedDatabase } from './entities/database.js';
import { ComputeEndpoint } from './entities/endpoint.js';

/** One query for the rows of every key asked for in this request, grouped by `key`. */
function grouped<T extends object>(context: RequestContext, name: string, load: (ids: string[]) => Promise<T[]>, keyOf: (row: T) => string) {
  return loader(context, `databases.${name}`, () =>
    new DataLoader<string, T[]>(async (ids) => {
      const rows = await load([...ids]);
      const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
      for (const row of rows) groups.get(keyOf(row))?.push(row);
      return ids.map((id) => groups.get(id)!);
    }),
  );
}

export const branchesByProject = (context: RequestContext) =>
  grouped(context, 'branchesByProject', (ids) => context.em.find(DatabaseBranch, { projectId: { $in: ids } }, { orderBy: { createdAt: 'asc', id: 'asc' } }), (row) => row.projectId);

export const databasesByBranch = (context: RequestContext) =>
  grouped(context, 'databasesByBranch', (ids) => context.em.find(ManagedDatabase, { branchId: { $in: ids } }, { orderBy: { createdAt: 'asc', id: 'asc' } }), (row) => row.branchId);

export const endpointsByBranch = (context: RequestContext) =>
  grouped(context, 'endpointsByBranch', (ids) => context.em.find(ComputeEndpoint, { branchId: { $in: ids } }), (row) => row.branchId);

/** Sizes in bytes of data-plane databases, by physical name: one query per request. */
export const sizesByDatabase = (context: RequestContext) =>
  loader(context, 'databases.sizes', () =>
    new DataLoader<string, bigint>(async (names) => {
      const sizes = await databaseSizes(await dataPlaneOf(context.services), [...names]);
      return names.map((name) => sizes.get(name) ?? 0n);
    }),
  );

/** Total size of a branch's databases. */
export async function branchSize(context: RequestContext, branchId: string): Promise<bigint> {
  const databases = await databasesByBranch(context).load(branchId);
  const sizes = await sizesByDatabase(context).loadMany(databases.map((database) => database.physicalName));
  return sizes.reduce<bigint>((sum, size) => sum + (typeof size === 'bigint' ? size : 0n), 0n);
}
