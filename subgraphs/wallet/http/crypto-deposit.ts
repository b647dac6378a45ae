import express, { type Response, type Router } from 'express';
import type { RequestContext } from '../../../shared/context.js';
import type { PlatformServices } from '../../../shared/services.js';
import {
  encodeHeaderJson,
  paymentRequiredBody,
  paymentRequiredHeader,
  PaymentRejected,
  type PaymentTerms,
  type X402Reason,
} from '../../../shared/x402/index.js';
import { acceptCryptoDeposit, cryptoDepositTerms } from '../services/crypto-deposits.js';

function answerPaymentRequired(res: Response, terms: PaymentTerms, error: X402Reason) {
  res.setHeader('PAYMENT-REQUIRED', paymentRequiredHeader(terms, error));
  res.status(402).json(paymentRequiredBody(terms, error));
}

/**
 * POST /wallet/deposit/crypto: the x402 two-step flow. It is a raw route because the protocol
 * lives in headers (X-PAYMENT / PAYMENT-SIGNATURE in, PAYMENT-REQUIRED / X-PAYMENT-RESPONSE out).
 */
export function cryptoDepositRoute(router: Router, _services: PlatformServices) {
  router.post('/wallet/deposit/crypto', express.json({ limit: '64kb' }), async (req, res, next) => {
    const context = res.locals.context as RequestContext;
    let terms: PaymentTerms | undefined;
    try {
      const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
      terms = await cryptoDepositTerms(context, body);
      const header = req.header('x-payment') ?? req.header('payment-signature');
      // `error` must be one of the x402 package's reasons; a missing payment is `invalid_payment`.
      if (!header) return answerPaymentRequired(res, terms, 'invalid_payment');
      const result = await acceptCryptoDeposit(context, terms, body.publisher_id, header);
      const receipt = encodeHeaderJson(result.settlement);
      res.setHeader('X-PAYMENT-RESPONSE', receipt);
      res.setHeader('PAYMENT-RESPONSE', receipt);
      res.json({ data: result.data });
    } catch (error) {
      if (error instanceof PaymentRejected && terms) return answerPaymentRequired(res, terms, error.reason);
      next(error);
    }
  });
}
