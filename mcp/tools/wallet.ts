import { z } from 'zod';
import { page } from '../results.js';
import { CREATES, defineTool, READS } from '../tool.js';
import { limit, listOf, offset } from './fields.js';

export const walletTools = [
  defineTool({
    name: 'get_prepaid_balance',
    title: 'Read the wallet balance',
    description: 'Shows your prepaid wallet in USD: balance, what calls in flight hold (pending), what can be spent now (available), and credits with publishers. Free.',
    toolset: 'wallet',
    annotations: READS,
    input: {},
    output: z.looseObject({ balance: z.string(), available: z.string(), currency: z.string() }),
    run: (_args, context) =>
      context.platform.run('query { wallet { balance currency pending available prepaidCredits { publisherId balance } } }'),
  }),
  defineTool({
    name: 'get_transaction_history',
    title: 'Read wallet transactions',
    description: 'Lists your wallet movements, newest first (deposits, charges for paid calls, refunds, bonuses) with the balance after each. Free. Page with limit and offset.',
    toolset: 'wallet',
    annotations: READS,
    input: { limit, offset },
    output: listOf('transactions'),
    async run(args, context) {
      const { items, ...rest } = await page(
        (pageLimit, pageOffset) =>
          context.platform.run<Record<string, unknown>[]>(
            'query($limit: Int, $offset: Int) { walletTransactions(limit: $limit, offset: $offset) { id type direction amount balanceAfter reference metadata createdAt } }',
            { limit: pageLimit, offset: pageOffset },
          ),
        args,
        context.settings.maxRows,
      );
      return { transactions: items, ...rest, ...(rest.truncated ? { hint: `Call again with offset ${rest.next_offset} for older ones` } : {}) };
    },
  }),
  defineTool({
    name: 'create_prepaid_deposit',
    title: 'Deposit into the wallet',
    description:
      'Starts a card deposit of amount_usd (5.00 to 100.00) into your prepaid wallet and answers the checkout URL for a person ' +
      'to pay; the wallet is credited once the payment completes. Needs a verified e-mail. Nothing is charged until then.',
    toolset: 'wallet',
    annotations: { ...CREATES, openWorldHint: true },
    input: {
      amount_usd: z.number().min(5).max(100).multipleOf(0.01).describe('USD to deposit, at least 5.00, whole cents'),
    },
    output: z.object({ checkout_url: z.string(), session_id: z.string(), amount_usd: z.string(), message: z.string() }),
    async run(args, context) {
      const amountCents = Math.round(args.amount_usd * 100);
      const checkout = await context.platform.run<{ id: string; url: string; amount_cents: number }>(
        'mutation($input: CardDepositInput!) { createCardDeposit(input: $input) { id url amountCents } }',
        { input: { amountCents } },
      );
      return {
        checkout_url: checkout.url,
        session_id: checkout.id,
        amount_usd: (checkout.amount_cents / 100).toFixed(2),
        message: 'Open checkout_url to pay by card; get_prepaid_balance shows the credit once the payment completes',
      };
    },
  }),
];
