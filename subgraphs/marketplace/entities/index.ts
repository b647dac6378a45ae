import { PublisherEndpoint } from './endpoint.js';
import { PublisherLogo } from './logo.js';
import { PublisherPricing } from './pricing.js';
import { Publisher } from './publisher.js';
import { PublisherAgent } from './publisher-agent.js';

export const marketplaceEntities = [Publisher, PublisherEndpoint, PublisherPricing, PublisherLogo, PublisherAgent];
