import { BigIntType } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** The organization id of the community's cells (every organization's signals together). */
export const COMMUNITY = '00000000-0000-0000-0000-000000000000';

/**
 * Running totals of one (organization, task type, model), updated as signals arrive. The decayed
 * sums are the recency-weighted counts as of `decayedAt` (each signal weighs 1 when it arrives
 * and halves every half-life): a read decays them to now, an update decays them to its own time.
 */
@Entity({ tableName: 'eval_cell' })
@Index({ properties: ['taskType', 'modelId'] })
export class EvalCell {
  @PrimaryKey({ type: 'uuid' }) organizationId!: string;
  @PrimaryKey({ type: 'text' }) taskType!: string;
  @PrimaryKey({ type: 'text' }) modelId!: string;
  @Property({ type: new BigIntType('number') }) signals: number = 0;
  @Property({ type: 'double' }) successSum: number = 0;
  @Property({ type: 'integer' }) clients: number = 0;
  @Property({ type: new BigIntType('number') }) latencyCount: number = 0;
  @Property({ type: 'double' }) latencySum: number = 0;
  @Property({ type: new BigIntType('number') }) costCount: number = 0;
  @Property({ type: 'bigint' }) costSumMicros: bigint = 0n;
  @Property({ type: 'double' }) decayedSignals: number = 0;
  @Property({ type: 'double' }) decayedSuccess: number = 0;
  @Property({ type: 'timestamptz' }) decayedAt!: Date;
  @Property({ type: 'timestamptz' }) firstSignalAt!: Date;
  @Property({ type: 'timestamptz' }) lastSignalAt!: Date;
}

/** Which clients reported on a cell: a client's first signal there counts it once. */
@Entity({ tableName: 'eval_cell_client' })
export class EvalCellClient {
  @PrimaryKey({ type: 'uuid' }) organizationId!: string;
  @PrimaryKey({ type: 'text' }) taskType!: string;
  @PrimaryKey({ type: 'text' }) modelId!: string;
  @PrimaryKey({ type: 'uuid' }) clientId!: string;
}

/** The community's running totals of signals that named a publisher, per task type (for publisher suggestions). */
@Entity({ tableName: 'eval_publisher_cell' })
export class EvalPublisherCell {
  @PrimaryKey({ type: 'text' }) taskType!: string;
  @PrimaryKey({ type: 'text' }) publisherSlug!: string;
  @Property({ type: new BigIntType('number') }) signals: number = 0;
  @Property({ type: 'double' }) successSum: number = 0;
}
