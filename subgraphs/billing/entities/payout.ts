import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type PayoutStatus = 'pending' | 'processing' | 'paid' | 'failed';

/** A publisher's withdrawal of earnings to its wallet address; the money is held in the ledger until paid or failed. */
@Entity({ tableName: 'billing_payout' })
export class Payout {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  publisherId!: string;

  @Property({ type: 'bigint' })
  amountMicros!: bigint;

  @Property({ type: 'text' })
  status: PayoutStatus = 'pending';

  @Property({ type: 'text' })
  walletAddress!: string;

  @Property({ type: 'text', nullable: true })
  networkId: string | null = null;

  @Property({ type: 'text', nullable: true })
  asset: string | null = null;

  /** The ledger hold (publisher payable -> on-chain clearing) posted when paid, voided when failed. */
  @Property({ type: 'uuid' })
  holdTransferId!: string;

  @Property({ type: 'text', nullable: true })
  txHash: string | null = null;

  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  @Property({ type: 'uuid' })
  requestedByUserId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
