/** The federated resource and history entry records, each with its publisher resolved by the marketplace. */
export const federationFragments: Record<string, string> = {
  FederatedResourceFields: `fragment FederatedResourceFields on FederatedResource {
    id resourceType externalId status title url data createdAt updatedAt publisher { id name slug }
  }`,
  FederationHistoryEntryFields: `fragment FederationHistoryEntryFields on FederationHistoryEntry {
    id sequence operation resourceId resourceType externalId before after actorId createdAt previousHash hash publisher { id name slug }
  }`,
};
