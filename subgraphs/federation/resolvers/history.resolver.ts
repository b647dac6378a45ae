import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { FederationHistoryEntry } from '../entities/history-entry.js';
import { listFederationHistory } from '../services/list-history.js';
import { federationHistoryStats, federationStats } from '../services/stats.js';
import { verifyFederationHistory } from '../services/verify-history.js';
import { FederationHistoryInput } from '../types/inputs.js';
import { PublisherReference, publisherReference } from '../types/publisher-ref.js';
import { FederationHistoryStats, FederationStats, HistoryChainVerification } from '../types/results.js';

@Resolver(() => FederationHistoryEntry)
export class FederationHistoryResolver {
  @Query(() => [FederationHistoryEntry], { description: 'Append-only history of federated resources, newest first' })
  federationHistory(@Arg('input', () => FederationHistoryInput, { nullable: true }) input: FederationHistoryInput | null, @Ctx() context: RequestContext) {
    return listFederationHistory(context, input ?? {});
  }

  @Query(() => HistoryChainVerification, { description: 'Recomputes a publisher’s hash chain and names the first broken sequence' })
  verifyFederationHistory(@Arg('publisherSlug', () => String, { nullable: true }) publisherSlug: string | null, @Ctx() context: RequestContext) {
    return verifyFederationHistory(context, publisherSlug);
  }

  @Query(() => FederationStats)
  federationStats(@Arg('publisherSlug', () => String, { nullable: true }) publisherSlug: string | null, @Ctx() context: RequestContext) {
    return federationStats(context, publisherSlug);
  }

  @Query(() => FederationHistoryStats)
  federationHistoryStats(
    @Arg('publisherSlug', () => String, { nullable: true }) publisherSlug: string | null,
    @Arg('resourceType', () => String, { nullable: true }) resourceType: string | null,
    @Ctx() context: RequestContext,
  ) {
    return federationHistoryStats(context, { publisherSlug, resourceType });
  }

  @FieldResolver(() => PublisherReference, { nullable: true })
  publisher(@Root() entry: FederationHistoryEntry) {
    return publisherReference(entry.publisherId);
  }
}
