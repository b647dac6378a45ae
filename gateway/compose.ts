import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { subgraphModules } from './subgraphs.js';

/** Composes the static supergraph from every subgraph module's schema. */
export async function composeSupergraph(): Promise<string> {
  const services = [];
  for (const module of subgraphModules) {
    const schema = await module.buildSchema();
    services.push({ name: module.name, url: `http://${module.name}.subgraph.local/graphql`, typeDefs: parse(printSubgraphSchema(schema)) });
  }
  const result = composeServices(services);
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((error) => error.message).join('\n')}`);
  }
  return result.supergraphSdl;
}
