import { MICROS_PER_CENT } from '../../../shared/money.js';

/** A card is charged whole cents: the total rounded to the nearest cent (half up). */
export const amountDueCentsOf = (totalMicros: bigint): bigint => (totalMicros + MICROS_PER_CENT / 2n) / MICROS_PER_CENT;
