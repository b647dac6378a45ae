export const databasesFragments: Record<string, string> = {
  DatabaseWithContextFields:
    'fragment DatabaseWithContextFields on DatabaseWithContext { database { id name ownerName createdAt } project { id name region createdAt } branch { id name parentBranchId createdAt } }',
  ManagedDatabaseFields: 'fragment ManagedDatabaseFields on ManagedDatabase { id branchId name ownerName physicalName createdAt }',
  ComputeEndpointFields:
    'fragment ComputeEndpointFields on ComputeEndpoint { id projectId branchId type state autoscalingMin autoscalingMax autoStart suspendedAt lastActiveAt host port database role createdAt }',
  DatabaseBranchFields:
    'fragment DatabaseBranchFields on DatabaseBranch { id projectId name parentBranchId isDefault createdAt parentLsn parentStateAt parentPauseMs sizeBytes databases { ...ManagedDatabaseFields } endpoints { ...ComputeEndpointFields } }',
  DatabaseProjectFields:
    'fragment DatabaseProjectFields on DatabaseProject { id name region roleName defaultBranchId createdAt connectionHost connectionPort sizeBytes branches { ...DatabaseBranchFields } }',
  SqlResultFields: 'fragment SqlResultFields on SqlResult { rows fields { name dataTypeName } rowCount durationMs truncated command }',
};
