import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Who has called a publisher at least once: makes `unique_agents_served` exact. */
@Entity({ tableName: 'market_publisher_agent' })
export class PublisherAgent {
  @PrimaryKey({ type: 'uuid' })
  publisherId!: string;

  @PrimaryKey({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'timestamptz' })
  firstCalledAt: Date = new Date();
}
