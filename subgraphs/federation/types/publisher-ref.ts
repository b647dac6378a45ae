import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The marketplace's Publisher, referenced by id: its name and slug come from the marketplace subgraph. */
@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('Publisher')
export class PublisherReference {
  @Field(() => ID) id!: string;
}

export const publisherReference = (id: string) => Object.assign(new PublisherReference(), { id });
