import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors.js';
import { Notification } from '../entities/notification.js';
import { isUuid } from '../../../shared/ids.js';
import { pageOf, type PageInput } from '../../../shared/paging.js';

export function notify(em: EntityManager, userId: string, kind: string, title: string, body: string, data?: Record<string, unknown>) {
  return em.create(Notification, { userId, kind, title, body, data: data ?? null } as Notification);
}

export async function listNotifications(context: RequestContext, input: PageInput & { unreadOnly?: boolean | null }) {
  const identity = requireIdentity(context);
  const { limit, offset } = pageOf(input);
  return context.em.find(
    Notification,
    { userId: identity.userId, ...(input.unreadOnly ? { readAt: null } : {}) },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset },
  );
}

/** Marks one of the caller's notifications read (idempotent); anyone else's is "not found". */
export async function markNotificationRead(context: RequestContext, notificationId: string): Promise<Notification> {
  const identity = requireIdentity(context);
  if (!isUuid(notificationId)) throw notFound('Notification');
  const notification = await context.em.findOne(Notification, { id: notificationId, userId: identity.userId });
  if (!notification) throw notFound('Notification');
  if (!notification.readAt) {
    notification.readAt = new Date();
    await context.em.flush();
  }
  return notification;
}
