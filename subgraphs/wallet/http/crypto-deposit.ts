import express, { type Router } from 'express';
import type { RequestContext } from '../../../shared/context.js';
import type { PlatformServices } from '../../../shared/services.js';
import { paymentHeaderOf, paymentReceiptHeaders, PaymentRejected, sendPaymentRequired } from '../../../shared/x402/index.js';
import { acceptCryptoDeposit, cryptoDepositTerms, type DepositTerms } from '../services/crypto-deposits.js';

/**
 * POST /wallet/deposit/crypto: the x402 two-step flow. It is a raw route because the protocol
 * lives in headers (X-PAYMENT / PAYMENT-SIGNATURE in, PAYMENT-REQUIRED / X-PAYMENT-RESPONSE out).
 */
export function cryptoDepositRoute(router: Router, _services: PlatformServices) {
  router.post('/wallet/deposit/crypto', express.json({ limit: '64kb' }), async (req, res, next) => {
    const context = res.locals.context as RequestContext;
    let terms: DepositTerms | undefined;
    try {
      const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
      terms = await cryptoDepositTerms(context, body);
      const header = paymentHeaderOf(req.headers);
      // `error` must be one of the x402 package's reasons; a missing payment is `invalid_payment`.
      if (!header) return sendPaymentRequired(res, terms, 'invalid_payment');
      const result = await acceptCryptoDeposit(context, terms, body.publisher_id, header);
      // 202: paid on-chain, credited by the booking sweep shortly.
      res.status(result.booked ? 200 : 202).set(paymentReceiptHeaders(result.settlement)).json({ data: result.data });
    } catch (error) {
      if (error instanceof PaymentRejected && terms) return sendPaymentRequired(res, terms, error.reason);
      next(error);
    }
  });
}
