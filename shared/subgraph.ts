import type { GraphQLSchema } from 'graphql';
import type { Router } from 'express';
import type { EntityClass, MigrationObject } from '@mikro-orm/core';
import type { PlatformServices } from './services.js';

/**
 * What a domain contributes to the platform. The gateway composes these; a subgraph never
 * imports another subgraph.
 */
export interface SubgraphModule {
  /** Lower-case name; SUBGRAPH_<NAME>_URL switches it to HTTP. */
  name: string;
  /** Every table of this subgraph starts with it (e.g. `account_`): rooms stay separate in one database. */
  tablePrefix: string;
  entities: EntityClass<any>[];
  /** Hand-reviewed migrations, named Migration<yyyymmddhhmmss>_<subgraph>_<what>. */
  migrations: MigrationObject[];
  /** The federated subgraph schema (built once per process). */
  buildSchema(): Promise<GraphQLSchema>;
  /** Raw HTTP routes that cannot be GraphQL (webhooks, byte streams), mounted on the front door. */
  httpRoutes?(router: Router, services: PlatformServices): void;
  /**
   * Connects to other domains at start: subscribes to their events, fills the ports it answers;
   * may finish start-up work (e.g. seeding) before the platform listens.
   */
  connect?(services: PlatformServices): void | Promise<void>;
  /** Starts periodic work (sweeps) that stops with the platform; one-shot operator commands leave it off. */
  startSweeps?(services: PlatformServices): void;
}
