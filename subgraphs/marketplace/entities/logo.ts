import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A publisher's logo image, served by GET /publishers/{slug}/logo. */
@Entity({ tableName: 'market_logo' })
export class PublisherLogo {
  @PrimaryKey({ type: 'uuid' }) publisherId!: string;
  @Property({ type: 'text' }) contentType!: string;
  @Property({ type: 'blob' }) bytes!: Buffer;
  @Property({ type: 'text' }) etag!: string;
  @Property({ type: 'timestamptz' }) updatedAt: Date = new Date();
}
