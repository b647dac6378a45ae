import { bodyObject, pageQuery, type RestRequest, type RestRoute } from '../route.js';

const input = (request: RestRequest) => ({ input: bodyObject(request) });

/** "Wallet" of the specification (the on-chain deposit and the Stripe webhook are raw routes of the wallet subgraph). */
export const walletRoutes: RestRoute[] = [
  { method: 'GET', path: '/wallet/balance', document: 'query { wallet { ...WalletFields } }' },
  {
    method: 'GET',
    path: '/wallet/transactions',
    document:
      'query($limit: Int, $offset: Int) { walletTransactions(limit: $limit, offset: $offset) { ...WalletTransactionFields } }',
    variables: pageQuery,
  },
  {
    method: 'POST',
    path: '/wallet/deposit',
    document: 'mutation($input: CardDepositInput!) { createCardDeposit(input: $input) { id url amountCents } }',
    variables: input,
  },
  {
    method: 'GET',
    path: '/wallet/daily/eligibility',
    document: 'query { dailyClaimEligibility { eligible amount nextClaimAt lastClaimedAt } }',
  },
  { method: 'POST', path: '/wallet/daily/claim', document: 'mutation { claimDaily { ...WalletCreditFields } }' },
  { method: 'POST', path: '/wallet/dev-credits', document: 'mutation { grantDevelopmentCredits { ...WalletCreditFields } }' },
  { method: 'POST', path: '/wallet/bonus/signup', document: 'mutation { claimSignupBonus { ...WalletCreditFields } }' },
  {
    method: 'POST',
    path: '/wallet/bonus/payment-method',
    document: 'mutation { claimPaymentMethodBonus { ...WalletCreditFields } }',
  },
  { method: 'GET', path: '/wallet/referral', document: 'query { referral { code joined earned bonus } }' },
  {
    method: 'POST',
    path: '/wallet/referral/apply',
    document: 'mutation($input: ApplyReferralInput!) { applyReferralCode(input: $input) { applied rewarded bonus } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/wallet/recovery',
    document: 'mutation($input: RecoveryRequestInput!) { requestRecoveryCode(input: $input) { recoveryCode } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/wallet/recover',
    auth: 'optional',
    document: 'mutation($input: RecoverAccountInput!) { recoverAccount(input: $input) { userId apiKey recoveryCode } }',
    variables: input,
  },
];
