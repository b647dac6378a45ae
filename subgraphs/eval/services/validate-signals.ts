import { badRequest } from '../../../shared/errors.js';
import { decimalToMicros } from '../../../shared/money.js';
import { isUnstorableText } from '../../../shared/text.js';
import type { EvalSignalInput } from '../types/inputs.js';
import { checkedTaskType, type TaskType } from '../types/task-type.js';

export const MAX_BATCH = 100;
export const MAX_ID = 200;
const MAX_LATENCY_MS = 86_400_000;
/** A signal's cost is at most 1,000,000 USD (in micro-dollars), so sums stay far inside 64 bits. */
const MAX_COST_MICROS = 1_000_000n * 1_000_000n;
const MAX_TOKENS = 1e12;

export interface Signal {
  taskType: TaskType;
  modelId: string;
  success: number;
  latencyMs: number | null;
  costMicros: string | null;
  tokens: number | null;
  publisherSlug: string | null;
  signalId: string | null;
}

/** A text field of 1..MAX_ID printable characters, or null when absent and optional. */
function text(value: unknown, field: string, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) throw badRequest('invalid_signal', `${field} is required`, { field });
    return null;
  }
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_ID || isUnstorableText(value) || /[\u0000-\u001f]/.test(value)) {
    throw badRequest('invalid_signal', `${field} must be 1-${MAX_ID} printable characters`, { field });
  }
  return value;
}

function boundedNumber(value: number | null | undefined, field: string, max: number, integer: boolean): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isFinite(value) || value < 0 || value > max || (integer && !Number.isInteger(value))) {
    throw badRequest('invalid_signal', `${field} must be ${integer ? 'a whole number' : 'a number'} between 0 and ${max}`, { field });
  }
  return value;
}

function successOf(input: EvalSignalInput, at: string): number {
  const hasOutcome = input.outcome !== undefined && input.outcome !== null;
  const hasScore = input.score !== undefined && input.score !== null;
  if (hasOutcome === hasScore) throw badRequest('invalid_signal', `${at}: give either outcome (success or failure) or score`, { field: `${at}.outcome` });
  if (hasScore) return boundedNumber(input.score, `${at}.score`, 1, false)!;
  if (input.outcome !== 'success' && input.outcome !== 'failure') {
    throw badRequest('invalid_signal', `${at}.outcome must be success or failure`, { field: `${at}.outcome` });
  }
  return input.outcome === 'success' ? 1 : 0;
}

function costOf(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null) return null;
  const micros = decimalToMicros(value, 'integers');
  if (micros === null || micros > MAX_COST_MICROS) {
    throw badRequest('invalid_signal', `${field} must be a non-negative decimal string with at most 6 decimals, e.g. "0.0021"`, { field });
  }
  return micros.toString();
}

/** Every signal of a batch checked before any is stored; the first bad one names its index and field. */
export function validateSignals(inputs: EvalSignalInput[]): Signal[] {
  if (inputs.length === 0) throw badRequest('no_signals', 'Send one signal or a batch of signals');
  if (inputs.length > MAX_BATCH) throw badRequest('too_many_signals', `A batch holds at most ${MAX_BATCH} signals`);
  return inputs.map((input, index) => {
    const at = `signals[${index}]`;
    return {
      taskType: checkedTaskType(input.taskType, `${at}.task_type`),
      modelId: text(input.modelId, `${at}.model_id`, true)!,
      success: successOf(input, at),
      latencyMs: boundedNumber(input.latencyMs, `${at}.latency_ms`, MAX_LATENCY_MS, false),
      costMicros: costOf(input.cost, `${at}.cost`),
      tokens: boundedNumber(input.tokens, `${at}.tokens`, MAX_TOKENS, true),
      publisherSlug: text(input.publisherSlug, `${at}.publisher_slug`, false),
      signalId: text(input.signalId, `${at}.signal_id`, false),
    };
  });
}
