import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { Notification } from '../entities/notification.js';
import { listNotifications, markNotificationRead } from '../services/notifications.js';

@Resolver(() => Notification)
export class NotificationResolver {
  @Query(() => [Notification], { description: 'Newest first' })
  notifications(
    @Ctx() context: RequestContext,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
    @Arg('unreadOnly', () => Boolean, { nullable: true }) unreadOnly?: boolean,
  ) {
    return listNotifications(context, { limit, offset, unreadOnly });
  }

  @Mutation(() => Notification)
  markNotificationRead(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return markNotificationRead(context, id);
  }
}
