import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { registerAgent, updateAgent } from '../services/agents.js';
import { EmailInput, RegisterAgentInput } from '../types/inputs.js';
import { Agent, AgentRegistration } from '../types/results.js';

@Resolver()
export class AgentResolver {
  @Mutation(() => AgentRegistration, { description: 'Self-registration; the API key is returned once' })
  registerAgent(
    @Arg('input', () => RegisterAgentInput, { nullable: true }) input: RegisterAgentInput | null,
    @Ctx() context: RequestContext,
  ) {
    return registerAgent(context, input ?? {});
  }

  @Mutation(() => Agent, { description: 'Changing the e-mail unverifies it and mails a link' })
  updateAgent(@Arg('input', () => EmailInput) input: EmailInput, @Ctx() context: RequestContext) {
    return updateAgent(context, input);
  }
}
