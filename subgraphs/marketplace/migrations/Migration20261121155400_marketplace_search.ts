import { Migration } from '@mikro-orm/migrations';

/** Full-text and trigram search over the catalogue, integrity rules the ORM cannot express. */
export class Migration20261121155400_marketplace_search extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists pg_trgm');
    // array_to_string is only STABLE; generated columns need IMMUTABLE (true for text[] input).
    this.addSql(`create or replace function market_text_list(text[]) returns text
      language sql immutable parallel safe as $$ select coalesce(array_to_string($1, ' '), '') $$`);
    this.addSql(`alter table market_publisher add column search_vector tsvector generated always as (
        setweight(to_tsvector('english', coalesce(name, '') || ' ' || coalesce(resource_name, '')), 'A') ||
        setweight(to_tsvector('english', market_text_list(capabilities) || ' ' || market_text_list(categories) || ' ' || publisher_category), 'A') ||
        setweight(to_tsvector('english', market_text_list(use_cases)), 'B') ||
        setweight(to_tsvector('english', coalesce(description, '') || ' ' || coalesce(resource_description, '')), 'C')
      ) stored`);
    this.addSql(`alter table market_publisher add column search_text text generated always as (lower(
        name || ' ' || resource_name || ' ' || market_text_list(capabilities) || ' ' || market_text_list(categories) || ' ' ||
        publisher_category || ' ' || market_text_list(use_cases) || ' ' || description || ' ' || resource_description
      )) stored`);
    this.addSql('create index market_publisher_search_vector_index on market_publisher using gin (search_vector)');
    this.addSql('create index market_publisher_search_text_trgm_index on market_publisher using gin (search_text gin_trgm_ops)');
    this.addSql('create index market_publisher_active_listing_index on market_publisher (is_active, is_verified desc, total_queries desc, name)');
    this.addSql(`alter table market_publisher add constraint market_publisher_category_check check (publisher_category in ('database', 'integration', 'compute'))`);
    this.addSql(`alter table market_publisher add constraint market_publisher_billing_model_check check (billing_model in ('x402_per_request', 'prepaid_credits', 'pay_per_use'))`);
    this.addSql('alter table market_publisher add constraint market_publisher_fee_check check (gateway_fee_percent between 0 and 100000000)');
    this.addSql('alter table market_publisher add constraint market_publisher_counters_check check (total_queries >= 0 and unique_agents_served >= 0 and total_revenue_atomic_value >= 0)');
    this.addSql(`alter table market_endpoint add constraint market_endpoint_method_check check (method in ('GET', 'POST', 'PUT', 'PATCH', 'DELETE'))`);
    this.addSql('alter table market_endpoint add constraint market_endpoint_price_check check (price >= 0)');
    this.addSql(`alter table market_pricing add constraint market_pricing_amounts_check check (
        base_price_per1000rows >= 0 and markup_multiplier >= 0 and min_charge >= 0 and minimum_balance >= 0 and low_balance_threshold >= 0)`);
    // The ORM knows no relation between these rows, so inserts may come in any order: check at commit.
    for (const table of ['market_endpoint', 'market_pricing', 'market_logo']) {
      this.addSql(`alter table ${table} add constraint ${table}_publisher_fk foreign key (publisher_id) references market_publisher (id) on delete cascade deferrable initially deferred`);
    }
  }
}
