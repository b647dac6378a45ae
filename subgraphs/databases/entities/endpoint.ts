import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ID, Int, ObjectType } from 'type-graphql';

/** The compute that serves one branch: suspended, it refuses every connection to the branch's databases. */
@ObjectType('ComputeEndpoint')
@Entity({ tableName: 'db_endpoint' })
export class ComputeEndpoint {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  projectId!: string;

  @Field(() => ID)
  @Property({ type: 'uuid', unique: true })
  branchId!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  type: string = 'read_write';

  @Field(() => Int)
  @Property({ type: 'integer' })
  autoscalingMin: number = 1;

  @Field(() => Int)
  @Property({ type: 'integer' })
  autoscalingMax: number = 1;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  autoStart: boolean = true;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  suspendedAt: Date | null = null;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  lastActiveAt: Date = new Date();

  /** Usage is recorded for every whole hour before this (hourly, idempotent per hour). */
  @Property({ type: 'timestamptz' })
  usageRecordedUntil!: Date;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/** One stretch of time an endpoint was running (not suspended); the open one has no end. */
@Entity({ tableName: 'db_endpoint_run' })
export class EndpointRun {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  endpointId!: string;

  @Property({ type: 'timestamptz' })
  startedAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  endedAt: Date | null = null;
}
