import { RecoveryCodeRecord } from './recovery-code.js';
import { Referral } from './referral.js';
import { ReferralCode } from './referral-code.js';

export const walletEntities = [ReferralCode, Referral, RecoveryCodeRecord];
