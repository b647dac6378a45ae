import { BigIntType } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/** One outcome a client reported; kept as evidence, while reads use the aggregates (EvalCell). */
@Entity({ tableName: 'eval_signal' })
@Unique({ properties: ['organizationId', 'signalId'] })
export class EvalSignal {
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true }) id!: number;
  @Property({ type: 'uuid' }) organizationId!: string;
  /** The user or agent that sent it. */
  @Property({ type: 'uuid' }) clientId!: string;
  /** The client's own id for the signal: a replay with the same id is counted once per organization. */
  @Property({ type: 'text', nullable: true }) signalId: string | null = null;
  @Property({ type: 'text' }) taskType!: string;
  @Property({ type: 'text' }) modelId!: string;
  /** 1 for success, 0 for failure, or the score in [0, 1]. */
  @Property({ type: 'double' }) success!: number;
  @Property({ type: 'double', nullable: true }) latencyMs: number | null = null;
  @Property({ type: 'bigint', nullable: true }) costMicros: bigint | null = null;
  @Property({ type: new BigIntType('number'), nullable: true }) tokens: number | null = null;
  @Property({ type: 'text', nullable: true }) publisherSlug: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
