import { BigIntType } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** The end of a publisher's history chain; its row lock orders every change of that publisher. */
@Entity({ tableName: 'fed_chain_head' })
export class FederationChainHead {
  @PrimaryKey({ type: 'uuid' }) publisherId!: string;
  @Property({ type: new BigIntType('number') }) lastSequence: number = 0;
  @Property({ type: 'text' }) lastHash: string = '';
}
