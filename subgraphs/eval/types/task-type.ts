import { registerEnumType } from 'type-graphql';
import { badRequest } from '../../../shared/errors.js';

/** What a model was asked to do; GraphQL names and REST strings are the same lower-case words. */
export enum TaskType {
  chat = 'chat',
  code = 'code',
  reasoning = 'reasoning',
  extraction = 'extraction',
  summarization = 'summarization',
  translation = 'translation',
  classification = 'classification',
  embedding = 'embedding',
  tool_use = 'tool_use',
  other = 'other',
}
registerEnumType(TaskType, { name: 'TaskType', description: 'What a model was asked to do' });

export const TASK_TYPES = Object.values(TaskType) as string[];
export const isTaskType = (value: unknown): value is TaskType => typeof value === 'string' && TASK_TYPES.includes(value);

/** 400 `invalid_task_type`, listing the values, for `field` (e.g. `task_type` or `signals[3].task_type`). */
export function checkedTaskType(value: unknown, field = 'task_type'): TaskType {
  if (value === undefined || value === null || value === '') throw badRequest('missing_task_type', `${field} is required`);
  if (!isTaskType(value)) throw badRequest('invalid_task_type', `${field} must be one of: ${TASK_TYPES.join(', ')}`, { field });
  return value;
}

export enum RoutingPreference {
  quality = 'quality',
  cost = 'cost',
  latency = 'latency',
}
registerEnumType(RoutingPreference, { name: 'RoutingPreference' });
