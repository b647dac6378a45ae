import type { RequestContext } from '../../../shared/context.js';
import { forbidden, notFound, unauthorized } from '../../../shared/errors.js';

export const operatorOnly = () => forbidden('Only the platform operator can do this', 'operator_only');

/** Operator operations: a Bearer from ADMIN_API_KEYS; 401 without a credential, 403 operator_only with any other. */
export function requireOperator(context: RequestContext): void {
  if (context.operator) return;
  if (!context.identity) throw unauthorized();
  throw operatorOnly();
}

/** Whether the signed-in caller belongs to the organization (its acting one, or any it is a member of). */
export async function isMemberOf(context: RequestContext, organizationId: string): Promise<boolean> {
  const identity = context.identity;
  if (!identity) return false;
  if (identity.organizationId === organizationId) return true;
  const roleOf = context.services.ports.organizationRole;
  return roleOf ? (await roleOf(context.em, identity.userId, organizationId)) !== null : false;
}

/** 401 unless the caller brought a credential: a user's, or the operator's. */
export function requireCaller(context: RequestContext): void {
  if (!context.identity && !context.operator) throw unauthorized();
}

/**
 * Reading an organization's billing: its members and the operator. Anyone else gets the same 404
 * as for an unknown id (`missing`), never a 403 that would confirm it exists.
 */
export async function requireMemberOrOperator(context: RequestContext, organizationId: string, missing: () => Error): Promise<void> {
  if (context.operator) return;
  if (!context.identity) throw unauthorized();
  if (!(await isMemberOf(context, organizationId))) throw missing();
}

export const invoiceNotFound = () => notFound('Invoice');
