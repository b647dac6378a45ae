export const databasesFragments: Record<string, string> = {
  DatabaseWithContextFields:
    'fragment DatabaseWithContextFields on DatabaseWithContext { database { id name ownerName createdAt } project { id name region createdAt } branch { id name parentBranchId createdAt } }',
};
