import type { EntityManager } from '@mikro-orm/postgresql';

export interface PublisherPayee {
  publisherId: string;
  slug: string;
  /** Payee address for on-chain payments; null when the publisher has none. */
  walletAddress: string | null;
  /** CAIP-2 network id, e.g. eip155:84532. */
  walletNetworkId: string | null;
}

/** What billing needs to know of a publisher to charge, refund and pay it out. */
export interface BilledPublisher extends PublisherPayee {
  /** The organization that owns it (its owners and admins manage its billing). */
  organizationId: string;
  /** Percent in micro-units (2.5% = 2_500_000n), as the marketplace stores it. */
  gatewayFeePercent: bigint;
}

/** Billable usage one domain records for an organization; billing invoices it. */
export interface UsageRecord {
  organizationId: string;
  /** What was used, dotted: `database.compute_seconds`, `database.storage_byte_hours`, `compute.hours`. */
  meter: string;
  /** How much, in the meter's unit (a decimal string, so fractions of a unit are exact). */
  quantity: string;
  /** Price of one unit in micro-dollars. */
  unitPriceMicros: bigint;
  /** When the usage happened (the invoice's period is chosen by it). */
  occurredAt: Date;
  /** The same key never bills twice: a replay is accepted and ignored. */
  idempotencyKey: string;
}

/** A database of a project's branch, as a database publisher names it. */
export interface DatabaseLocation {
  projectId: string;
  branchId: string;
  databaseName: string;
}

export interface PublishedQueryLimits {
  maxRows: number;
  statementTimeoutMs: number;
}

export interface PublishedQueryResult {
  rows: Record<string, unknown>[];
  fields: { name: string; dataTypeName: string }[];
  rowCount: number;
  truncated: boolean;
  durationMs: number;
}

/**
 * Questions one domain answers for another without either importing the other: the answering
 * module fills its port in `connect()`, the asking module treats a missing port as "not available yet".
 */
export interface PlatformPorts {
  /** Marketplace: where a publisher is paid on-chain. */
  publisherPayee?(em: EntityManager, publisherId: string): Promise<PublisherPayee | null>;
  /** Billing: whether the user has a stored payment method. */
  hasPaymentMethod?(em: EntityManager, userId: string): Promise<boolean>;
  /** Accounts: revokes the user's API keys and issues a new one (wallet recovery); the secret is returned once. */
  rotateApiKey?(em: EntityManager, userId: string): Promise<{ apiKey: string } | null>;
  /** Accounts: whether the user's address is verified now; waits for a verification still in flight. */
  emailVerified?(em: EntityManager, userId: string): Promise<boolean>;
  /** Accounts: the user's role in the organization (owner, admin, member), null when not a member. */
  organizationRole?(em: EntityManager, userId: string, organizationId: string): Promise<string | null>;
  /** Billing: records billable usage; answers false when the idempotency key was recorded before. */
  recordUsage?(em: EntityManager, usage: UsageRecord): Promise<boolean>;
  /** Marketplace: an active publisher by slug, as billing needs it; null when unknown or inactive. */
  billedPublisher?(em: EntityManager, slug: string): Promise<BilledPublisher | null>;
  /** Accounts: each user's default organization (whose invoice shows the user's wallet activity); unknown users are left out. */
  defaultOrganizations?(em: EntityManager, userIds: string[]): Promise<Map<string, string>>;
  /** Accounts: the users whose default organization it is (whose wallets its usage summary shows). */
  defaultOrganizationUsers?(em: EntityManager, organizationId: string): Promise<string[]>;
  /**
   * OAuth: the access token of the user's default connection to a provider, refreshed when it is
   * about to expire, for a publisher that passes the user's own token upstream.
   */
  userOAuthToken?(em: EntityManager, userId: string, providerId: string): Promise<UserOAuthToken>;
  /** Accounts: the organizations the user is a member of, oldest membership first. */
  organizationIdsOf?(em: EntityManager, userId: string): Promise<string[]>;
  /** Databases: whether the organization owns this database of one of its branches. */
  ownsDatabase?(em: EntityManager, organizationId: string, location: DatabaseLocation): Promise<boolean>;
  /**
   * Databases: a published database's read-only query, as a SELECT-only role in a READ ONLY
   * transaction; a write, even disguised, is refused (400 read_only_query) before it runs.
   */
  runPublishedQuery?(em: EntityManager, location: DatabaseLocation, query: string, limits: PublishedQueryLimits): Promise<PublishedQueryResult>;
  /** Databases: the planner's row estimate for a published database's query (EXPLAIN, nothing run). */
  estimatePublishedQuery?(em: EntityManager, location: DatabaseLocation, query: string): Promise<number>;
  /** Databases: the organization's sample database with a small data set, made on first call (seeding). */
  sampleDatabase?(em: EntityManager, organizationId: string): Promise<DatabaseLocation>;
  /** Marketplace: the active publishers an organization owns (federation asks who may publish). */
  publishersOwnedBy?(em: EntityManager, organizationId: string): Promise<PublisherRef[]>;
  /** Marketplace: a publisher by its slug (active or not), null when there is none. */
  publisherBySlug?(em: EntityManager, slug: string): Promise<PublisherRef | null>;
  /** Evaluation: the community's success rate of each publisher on a task (absent when it has no signals). */
  publisherSuccessRates?(em: EntityManager, asks: PublisherTask[]): Promise<PublisherSuccessRate[]>;
}

export interface PublisherRef {
  id: string;
  slug: string;
}

export interface PublisherTask {
  publisherSlug: string;
  taskType: string;
}

export interface PublisherSuccessRate extends PublisherTask {
  /** Mean success (0..1) over `signals` community signals that named this publisher and task. */
  successRate: number;
  signals: number;
}

export type UserOAuthToken =
  | { status: 'ok'; accessToken: string }
  | { status: 'missing'; providerSlug: string | null }
  | { status: 'needs_reauthorization'; providerSlug: string | null };

export type PortName = keyof PlatformPorts;

/**
 * The module that answers each port. In one process it fills the port in `connect()`; in split
 * mode a process without that module reaches it over HTTP (shared/remote-ports.ts), so every port
 * declared above must be named here (the compiler insists).
 */
export const portOwners: Record<PortName, string> = {
  publisherPayee: 'marketplace',
  hasPaymentMethod: 'billing',
  rotateApiKey: 'accounts',
  emailVerified: 'accounts',
  organizationRole: 'accounts',
  recordUsage: 'billing',
  userOAuthToken: 'oauth',
  publishersOwnedBy: 'marketplace',
  publisherBySlug: 'marketplace',
  publisherSuccessRates: 'eval',
  organizationIdsOf: 'accounts',
  ownsDatabase: 'databases',
  runPublishedQuery: 'databases',
  estimatePublishedQuery: 'databases',
  sampleDatabase: 'databases',
  billedPublisher: 'marketplace',
  defaultOrganizations: 'accounts',
  defaultOrganizationUsers: 'accounts',
};
