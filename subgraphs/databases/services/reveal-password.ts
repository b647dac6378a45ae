import type { RequestContext } from '../../../shared/context.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import { findOwnedProject } from './access.js';

/** The project role's password, on explicit request only (never a field of the project). */
export async function revealProjectPassword(context: RequestContext, projectId: string): Promise<string> {
  const project = await findOwnedProject(context, projectId);
  context.log.info({ projectId: project.id, userId: context.identity?.userId }, 'project password revealed');
  return secretBoxOf(context.services).decrypt(project.passwordSealed);
}
