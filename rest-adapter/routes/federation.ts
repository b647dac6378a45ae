import { bodyObject, pageQuery, stringQuery, type RestRequest, type RestRoute } from '../route.js';

type WithPublisher = { publisher: { slug: string } | null };

/** The spec's records carry `publisher_slug` beside the resolved publisher. */
const withPublisherSlug = <T extends WithPublisher>(item: T) => (item ? { ...item, publisher_slug: item.publisher?.slug ?? null } : item);
const eachWithPublisherSlug = (items: WithPublisher[]) => items.map(withPublisherSlug);
const publisherSlug = (request: RestRequest) => stringQuery(request, 'publisher_slug');

const COUNTS = 'total byPublisher { publisher { id name slug } count } byResourceType { key count }';

/** "Federation" of the specification: reads are public. The literal /federation/history… paths come before /federation/:id. */
export const federationRoutes: RestRoute[] = [
  {
    method: 'GET',
    auth: 'optional',
    path: '/federation/history',
    document: 'query($input: FederationHistoryInput) { federationHistory(input: $input) { ...FederationHistoryEntryFields } }',
    variables: (request) => ({
      input: {
        publisherSlug: publisherSlug(request),
        resourceType: stringQuery(request, 'resource_type'),
        externalId: stringQuery(request, 'external_id'),
        operation: stringQuery(request, 'operation'),
        ...pageQuery(request),
      },
    }),
    data: eachWithPublisherSlug,
  },
  {
    method: 'GET',
    auth: 'optional',
    path: '/federation/history/verify',
    document: `query($publisherSlug: String) { verifyFederationHistory(publisherSlug: $publisherSlug) {
      publisher { id name slug } intact entries lastSequence firstBrokenSequence } }`,
    variables: (request) => ({ publisherSlug: publisherSlug(request) }),
    data: withPublisherSlug,
  },
  {
    method: 'GET',
    auth: 'optional',
    path: '/federation/history/stats',
    document: `query($publisherSlug: String, $resourceType: String) { federationHistoryStats(publisherSlug: $publisherSlug, resourceType: $resourceType) {
      ${COUNTS} byOperation { key count } lastChangeAt } }`,
    variables: (request) => ({ publisherSlug: publisherSlug(request), resourceType: stringQuery(request, 'resource_type') }),
  },
  {
    method: 'GET',
    auth: 'optional',
    path: '/federation/stats',
    document: `query($publisherSlug: String) { federationStats(publisherSlug: $publisherSlug) { ${COUNTS} byStatus { key count } lastChangeAt } }`,
    variables: (request) => ({ publisherSlug: publisherSlug(request) }),
  },
  {
    method: 'GET',
    auth: 'optional',
    path: '/federation',
    document: 'query($input: FederatedResourceListInput) { federatedResources(input: $input) { ...FederatedResourceFields } }',
    variables: (request) => ({
      input: { publisherSlug: publisherSlug(request), resourceType: stringQuery(request, 'resource_type'), status: stringQuery(request, 'status'), ...pageQuery(request) },
    }),
    data: eachWithPublisherSlug,
  },
  {
    method: 'POST',
    path: '/federation',
    document: 'mutation($input: UpsertFederatedResourceInput!) { upsertFederatedResource(input: $input) { ...FederatedResourceFields } }',
    variables: (request) => ({ input: bodyObject(request) }),
    data: withPublisherSlug,
  },
  {
    method: 'GET',
    auth: 'optional',
    path: '/federation/:id',
    document: 'query($id: ID!) { federatedResource(id: $id) { ...FederatedResourceFields } }',
    variables: (request) => ({ id: request.params.id }),
    data: withPublisherSlug,
  },
  {
    method: 'DELETE',
    path: '/federation/:resource_type/:external_id',
    status: 204,
    document: 'mutation($resourceType: String!, $externalId: String!, $publisherSlug: String) { deleteFederatedResource(resourceType: $resourceType, externalId: $externalId, publisherSlug: $publisherSlug) }',
    variables: (request) => ({ resourceType: request.params.resource_type, externalId: request.params.external_id, publisherSlug: publisherSlug(request) }),
  },
];
