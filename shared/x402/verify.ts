import { getAddress, isAddress, verifyTypedData } from 'ethers';
import type { X402Reason } from './reasons.js';
import { maxTimeoutSecondsOf, type PaymentTerms } from './requirements.js';

/** Why a payment was refused; answered in the 402 body's `error`. */
export class PaymentRejected extends Error {
  constructor(readonly reason: X402Reason) {
    super(reason);
  }
}

export interface Authorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

export interface VerifiedPayment {
  x402Version: 1 | 2;
  payer: string;
  nonce: string;
  amount: bigint;
  /** Unix seconds: until then the authorization can be executed on-chain. */
  validBefore: bigint;
  /** The decoded payload, as the facilitator expects it. */
  paymentPayload: Record<string, any>;
}

const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
};

/** Seconds a signature must still be valid for, so it cannot expire while being settled. */
export const VALIDITY_MARGIN_SECONDS = 6;

/**
 * How far a payer's clock may run ahead of ours. Clients sign validBefore = their now +
 * maxTimeoutSeconds; an authorization valid for longer is refused, since until its validBefore has
 * passed, a settlement left unanswered can neither be booked nor failed.
 */
export const CLOCK_SKEW_SECONDS = 600;

const INTEGER = /^\d{1,78}$/;

export function decodePaymentHeader(header: string): Record<string, any> {
  try {
    const decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    if (decoded && typeof decoded === 'object') return decoded;
  } catch {
    // fall through
  }
  throw new PaymentRejected('invalid_payload');
}

function authorizationOf(payload: Record<string, any>): { authorization: Authorization; signature: string } {
  const inner = payload.payload;
  const authorization = inner?.authorization;
  const signature = inner?.signature;
  if (!authorization || typeof signature !== 'string') throw new PaymentRejected('invalid_payload');
  for (const field of ['value', 'validAfter', 'validBefore']) {
    if (typeof authorization[field] !== 'string' || !INTEGER.test(authorization[field])) throw new PaymentRejected('invalid_payload');
  }
  if (!isAddress(authorization.from) || !isAddress(authorization.to) || !/^0x[0-9a-fA-F]{64}$/.test(authorization.nonce ?? '')) {
    throw new PaymentRejected('invalid_payload');
  }
  return { authorization, signature };
}

/**
 * Checks an "exact" EIP-3009 payment against what we asked for: scheme, network, asset, payee,
 * amount, validity window (valid now, for at least the terms' minValiditySeconds (else
 * VALIDITY_MARGIN_SECONDS) more and for no longer
 * than maxTimeoutSeconds, give or take CLOCK_SKEW_SECONDS) and the EIP-712 signature of `from`.
 * Does not check replay (the caller records (network, payer, nonce) once) nor settle.
 */
export function verifyExactPayment(payload: Record<string, any>, terms: PaymentTerms, nowSeconds = Math.floor(Date.now() / 1000)): VerifiedPayment {
  const version = payload.x402Version;
  if (version !== 1 && version !== 2) throw new PaymentRejected('invalid_x402_version');
  const accepted = version === 2 ? payload.accepted ?? {} : payload;
  if (accepted.scheme !== 'exact') throw new PaymentRejected('unsupported_scheme');
  const network = version === 2 ? terms.network.caip2 : terms.network.name;
  if (accepted.network !== network && accepted.network !== terms.network.caip2 && accepted.network !== terms.network.name) {
    throw new PaymentRejected('invalid_network');
  }
  if (version === 2 && accepted.asset && String(accepted.asset).toLowerCase() !== terms.network.asset.toLowerCase()) {
    throw new PaymentRejected('invalid_payment_requirements');
  }
  const { authorization, signature } = authorizationOf(payload);
  if (getAddress(authorization.to) !== getAddress(terms.payTo)) throw new PaymentRejected('invalid_exact_evm_payload_recipient_mismatch');
  if (BigInt(authorization.value) !== terms.amount) throw new PaymentRejected('invalid_exact_evm_payload_authorization_value');
  if (BigInt(authorization.validAfter) > BigInt(nowSeconds)) throw new PaymentRejected('invalid_exact_evm_payload_authorization_valid_after');
  const validBefore = BigInt(authorization.validBefore);
  const latestValidBefore = BigInt(nowSeconds + maxTimeoutSecondsOf(terms) + CLOCK_SKEW_SECONDS);
  const minValidity = BigInt(terms.minValiditySeconds ?? VALIDITY_MARGIN_SECONDS);
  if (BigInt(nowSeconds) >= validBefore - minValidity || validBefore > latestValidBefore) {
    throw new PaymentRejected('invalid_exact_evm_payload_authorization_valid_before');
  }
  let signer: string;
  try {
    signer = verifyTypedData(
      { ...terms.network.eip712, chainId: terms.network.chainId, verifyingContract: terms.network.asset },
      TRANSFER_WITH_AUTHORIZATION,
      authorization,
      signature,
    );
  } catch {
    throw new PaymentRejected('invalid_exact_evm_payload_signature');
  }
  if (getAddress(signer) !== getAddress(authorization.from)) throw new PaymentRejected('invalid_exact_evm_payload_signature');
  return {
    x402Version: version,
    payer: getAddress(authorization.from),
    nonce: authorization.nonce.toLowerCase(),
    amount: terms.amount,
    validBefore,
    paymentPayload: payload,
  };
}

export const transferWithAuthorizationTypes = TRANSFER_WITH_AUTHORIZATION;
