import { badRequest } from '../../../shared/errors.js';

export interface BillingPeriod {
  /** YYYY-MM */
  period: string;
  start: Date;
  /** Exclusive: the first instant of the next month. */
  end: Date;
}

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function periodBounds(period: string): BillingPeriod {
  const match = PERIOD.exec(period);
  if (!match) throw badRequest('invalid_period', 'period must be a month as YYYY-MM, e.g. 2026-10');
  const year = Number(match[1]);
  const month = Number(match[2]) - 1;
  return { period, start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

/** The month to bill: the one given, which must have ended, or by default the last complete calendar month (UTC). */
export function closedPeriod(period: string | null | undefined, now = new Date()): BillingPeriod {
  if (period === null || period === undefined || period === '') {
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    return periodBounds(lastMonth.toISOString().slice(0, 7));
  }
  const bounds = periodBounds(period);
  if (bounds.end > now) throw badRequest('period_not_closed', `${period} has not ended yet: invoices bill complete months only`);
  return bounds;
}
