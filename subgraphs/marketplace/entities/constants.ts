/** The default accepted asset: US dollars (prepaid wallet balance), with a stable id. */
export const USD_ASSET_ID = '00000000-0000-4000-8000-000000000840';
export const USD_ASSET_SYMBOL = 'USD';

export const PUBLISHER_CATEGORIES = ['database', 'integration', 'compute'] as const;
export const BILLING_MODELS = ['x402_per_request', 'prepaid_credits', 'pay_per_use'] as const;
export const PUBLISHER_TYPES = ['individual', 'organization'] as const;
export const ENDPOINT_POLICIES = ['default_allow', 'default_deny'] as const;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const ENDPOINT_ACCESS = ['authenticated', 'public_anonymous'] as const;
export const PRICING_MODELS = ['per_request', 'per_row'] as const;
export const PARAM_TYPES = ['integer', 'boolean', 'string', 'number', 'array'] as const;
