import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { Invitation } from '../entities/invitation.js';
import { Organization } from '../entities/organization.js';
import { callerRoles } from '../loaders.js';
import { acceptInvitation, inviteMember, listOrganizations } from '../services/organizations.js';
import { InviteMemberInput, TokenInput } from '../types/inputs.js';
import { AcceptInviteResult } from '../types/results.js';

@Resolver(() => Organization)
export class OrganizationResolver {
  @Query(() => [Organization], { description: 'Organizations the caller belongs to' })
  organizations(@Ctx() context: RequestContext) {
    return listOrganizations(context);
  }

  @FieldResolver(() => String, { nullable: true, description: 'The caller’s role: owner, admin or member' })
  role(@Root() organization: Organization, @Ctx() context: RequestContext) {
    return callerRoles(context).load(organization.id);
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
