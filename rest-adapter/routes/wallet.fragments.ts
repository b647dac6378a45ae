export const walletFragments: Record<string, string> = {
  WalletFields: 'fragment WalletFields on Wallet { balance currency pending available prepaidCredits { publisherId balance } }',
  WalletTransactionFields:
    'fragment WalletTransactionFields on WalletTransaction { id type direction amount balanceAfter reference metadata createdAt }',
  WalletCreditFields: 'fragment WalletCreditFields on WalletCredit { transactionId type amount balance }',
};
