import type { EntityManager } from '@mikro-orm/postgresql';

export interface PublisherPayee {
  publisherId: string;
  slug: string;
  /** Payee address for on-chain payments; null when the publisher has none. */
  walletAddress: string | null;
  /** CAIP-2 network id, e.g. eip155:84532. */
  walletNetworkId: string | null;
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
}
