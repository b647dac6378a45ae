import { randomUUID } from 'node:crypto';
import { ArrayType, BigIntType } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLJSON, GraphQLSafeInt } from 'graphql-scalars';
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../types/scalars.js';
import { UsageExample } from './json-shapes.js';

/** A paid upstream resource of the marketplace (spec: "Publisher record"). */
@Directive('@key(fields: "id")')
@ObjectType('Publisher')
@Entity({ tableName: 'market_publisher' })
export class Publisher {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** The organization that owns and manages it. */
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => String) @Property({ type: 'text' }) name!: string;
  @Field(() => String) @Property({ type: 'text', unique: true }) slug!: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) email: string | null = null;
  @Field(() => String) @Property({ type: 'text' }) description: string = '';
  @Field(() => String) @Property({ type: 'text' }) resourceName: string = '';
  @Field(() => String) @Property({ type: 'text' }) resourceDescription: string = '';
  @Field(() => [String]) @Property({ type: ArrayType }) categories: string[] = [];
  @Field(() => [String]) @Property({ type: ArrayType }) capabilities: string[] = [];
  @Field(() => [String]) @Property({ type: ArrayType }) useCases: string[] = [];
  @Field(() => [UsageExample], { nullable: true }) @Property({ type: 'json', nullable: true }) usageExamples: UsageExample[] | null = null;

  /** Strong validator of the stored logo; null when there is none. */
  @Property({ type: 'text', nullable: true }) logoEtag: string | null = null;

  @Field(() => String, { nullable: true, description: 'Relative path of the logo, when there is one' })
  get logoUrl(): string | null {
    return this.logoEtag ? `/publishers/${this.slug}/logo` : null;
  }

  @Field(() => String) @Property({ type: 'text' }) publisherType: string = 'organization';
  @Field(() => String) @Property({ type: 'text' }) walletAddress: string = '';
  @Field(() => String) @Property({ type: 'text' }) walletNetworkId: string = '';
  @Field(() => String) @Property({ type: 'text' }) publisherCategory!: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) databaseType: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) integrationType: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) computeType: string | null = null;
  @Field(() => String) @Property({ type: 'text' }) billingModel: string = 'prepaid_credits';
  @Field(() => DecimalScalar, { description: 'Fee added by the gateway, in percent' })
  @Property({ type: 'bigint' }) gatewayFeePercent: bigint = 0n;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) upstreamCostResponsePath: string | null = null;
  @Field(() => [String]) @Property({ type: ArrayType }) allowedPassthroughHeaders: string[] = [];
  @Field(() => GraphQLJSON) @Property({ type: 'json' }) passthroughHeaderRewrite: Record<string, unknown> = {};
  @Field(() => String) @Property({ type: 'text' }) requestContentType: string = 'application/json';
  @Field(() => GraphQLJSON) @Property({ type: 'json' }) upstreamHeaders: Record<string, unknown> = {};
  @Field(() => Boolean) @Property({ type: 'boolean' }) ownershipTrackingEnabled: boolean = false;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) resourceIdResponsePath: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) resourceIdUrlPattern: string | null = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) protectedOperations: unknown[] | null = null;

  /** False for database publishers: their `endpoints` is null rather than a list. */
  @Property({ type: 'boolean' }) hasEndpoints: boolean = true;

  @Field(() => String) @Property({ type: 'text' }) undocumentedEndpointPolicy: string = 'default_allow';
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) projectId: string | null = null;
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) branchId: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) databaseName: string | null = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) databaseConfig: Record<string, unknown> | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) apiUrl: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) mcpEndpoint: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) a2aEndpointUrl: string | null = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) a2aAgentCard: Record<string, unknown> | null = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) mcpCapabilities: Record<string, unknown> | null = null;
  @Field(() => String) @Property({ type: 'text' }) a2aHealthStatus: string = 'unknown';
  /** False while its owner has paused it: not listed, and calls to it answer 403 publisher_inactive. */
  @Field(() => Boolean) @Property({ type: 'boolean' }) isActive: boolean = true;
  /** Set by DELETE: the record stays for history (and its slug stays taken) but is found nowhere. */
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
  @Field(() => Boolean) @Property({ type: 'boolean' }) isVerified: boolean = false;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) verificationExpiresAt: Date | null = null;

  // 64-bit in the database, exact in JSON up to 2^53 (GraphQL's Int stops at 2^31).
  @Field(() => GraphQLSafeInt) @Property({ type: new BigIntType('number') }) totalQueries: number = 0;
  @Field(() => GraphQLSafeInt) @Property({ type: new BigIntType('number') }) uniqueAgentsServed: number = 0;
  /** Micro-dollars (USDC atomic units) earned. */
  @Property({ type: 'bigint' }) totalRevenueAtomicValue: bigint = 0n;

  @Field(() => GraphQLSafeInt, { name: 'totalRevenueAtomic' })
  get totalRevenueAtomic(): number {
    return Number(this.totalRevenueAtomicValue);
  }

  @Field(() => Date) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => Date) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();

  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) acceptedAssets: unknown[] | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) tokenExchangeUrl: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) tokenExchangeMethod: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) tokenExchangeMode: string | null = null;
  @Field(() => Int, { nullable: true }) @Property({ type: 'integer', nullable: true }) tokenCacheTtlSeconds: number | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) tokenResponseField: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) apiKeyHeader: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) apiKeyQueryParam: string | null = null;
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) oauthProviderId: string | null = null;
  @Field(() => Boolean) @Property({ type: 'boolean' }) requiresUserOauth: boolean = false;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) routing: Record<string, unknown> | null = null;

  /** Write-only secrets, sealed with the platform SecretBox (AES-256-GCM); never a GraphQL field. */
  @Property({ type: 'text', nullable: true }) upstreamApiKeySealed: string | null = null;
  @Property({ type: 'text', nullable: true }) tokenExchangeCredentialsSealed: string | null = null;
}
