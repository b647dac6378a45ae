import { badRequest } from '../../../shared/errors.js';
import { ENDPOINT_ACCESS, HTTP_METHODS, PARAM_TYPES } from '../entities/constants.js';
import { PublisherEndpoint } from '../entities/endpoint.js';
import type { EndpointInput } from '../types/inputs.js';
import { parseOptionalMicros } from './decimal.js';
import { isWellFormedPathTemplate } from './match-endpoint.js';
import { oneOf } from './validate.js';

/** Validated endpoint rows for a publisher, in the order given. */
export function buildEndpoints(publisherId: string, inputs: EndpointInput[]): PublisherEndpoint[] {
  if (inputs.length > 500) throw badRequest('too_many_endpoints', 'A publisher declares at most 500 endpoints');
  const declared = new Set<string>();
  return inputs.map((input, position) => {
    const endpoint = new PublisherEndpoint();
    endpoint.publisherId = publisherId;
    endpoint.position = position;
    endpoint.method = oneOf(input.method?.toUpperCase(), HTTP_METHODS, 'method');
    if (!isWellFormedPathTemplate(input.path)) {
      throw badRequest('invalid_path', `endpoints[${position}].path must start with "/" and use well-formed {placeholders}`);
    }
    endpoint.path = input.path;
    // A second one could never be matched: the first always wins.
    const key = `${endpoint.method} ${endpoint.path}`;
    if (declared.has(key)) throw badRequest('duplicate_endpoint', `endpoints[${position}] repeats ${key}`);
    declared.add(key);
    endpoint.description = input.description ?? '';
    endpoint.requestBody = input.requestBody ?? null;
    endpoint.requestContentType = input.requestContentType ?? null;
    endpoint.response = input.response ?? null;
    endpoint.exampleRequest = input.exampleRequest ?? null;
    endpoint.exampleResponse = input.exampleResponse ?? null;
    endpoint.requiredHeaders = input.requiredHeaders ?? null;
    endpoint.bodyTemplate = input.bodyTemplate ?? null;
    endpoint.queryParams = input.queryParams?.map((param) => ({
      name: param.name,
      description: param.description,
      required: param.required,
      paramType: oneOf(param.paramType, PARAM_TYPES, 'param_type'),
      example: param.example ?? null,
    })) ?? null;
    endpoint.access = input.access ? oneOf(input.access, ENDPOINT_ACCESS, 'access') : 'authenticated';
    endpoint.isProtected = input.isProtected ?? false;
    endpoint.protectionReason = input.protectionReason ?? null;
    endpoint.isDefault = input.isDefault ?? false;
    endpoint.price = parseOptionalMicros(input.price, `endpoints[${position}].price`);
    return endpoint;
  });
}
