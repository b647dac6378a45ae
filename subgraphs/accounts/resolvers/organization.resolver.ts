import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { Invitation } from '../entities/invitation.js';
import { Organization } from '../entities/organization.js';
import { memberRoles } from '../loaders.js';
import { acceptInvitation, inviteMember, listOrganizations } from '../services/organizations.js';
import { InviteMemberInput, TokenInput } from '../types/inputs.js';
import { AcceptInviteResult } from '../types/results.js';

@Resolver(() => Organization)
export class OrganizationResolver {
  @Query(() => [Organization], { description: 'Organizations the caller belongs to' })
  organizations(@Ctx() context: RequestContext) {
    return listOrganizations(context);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'owner, admin or member: the role of the user it is shown for (a default organization: its user’s), else the caller’s',
  })
  role(@Root() organization: Organization & { shownFor?: string }, @Ctx() context: RequestContext) {
    const userId = organization.shownFor ?? context.identity?.userId;
    return userId ? memberRoles(context).load({ userId, organizationId: organization.id }) : null;
  }

  @Mutation(() => Invitation, { description: 'An owner or admin invites by e-mail; a link is mailed' })
  inviteToOrganization(@Arg('input', () => InviteMemberInput) input: InviteMemberInput, @Ctx() context: RequestContext) {
    return inviteMember(context, input);
  }

  @Mutation(() => AcceptInviteResult)
  acceptInvite(@Arg('input', () => TokenInput) input: TokenInput, @Ctx() context: RequestContext) {
    return acceptInvitation(context, input.token);
  }
}
