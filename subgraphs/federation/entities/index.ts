import { FederationChainHead } from './chain-head.js';
import { FederationHistoryEntry } from './history-entry.js';
import { FederatedResource } from './resource.js';

export const federationEntities = [FederatedResource, FederationHistoryEntry, FederationChainHead];
