import { isIP } from 'node:net';
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseMoney } from './money.js';
import { checksummedAddress, findNetwork } from './x402/networks.js';
import { parseAllowedRedirects, parseOAuthProviders, type ConfiguredOAuthProvider } from './oauth-config.js';

/** Secrets that must be provided in production and are generated once (kept in DATA_DIR) in development. */
const SECRET_NAMES = ['JWT_SECRET', 'INTERNAL_SECRET', 'SECRETS_KEY'] as const;
type SecretName = (typeof SECRET_NAMES)[number];

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => (value === undefined ? fallback : value === 'true' || value === '1'));

/** A comma-separated setting's entries, trimmed, empty ones dropped. */
const listOf = (value: string): string[] => value.split(',').map((entry) => entry.trim()).filter(Boolean);

const TRUSTED_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
function isTrustedProxyEntry(entry: string): boolean {
  if (TRUSTED_PROXY_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address!);
  if (family === 0 || rest.length > 0) return false;
  // A CIDR prefix of at least 1: /0 would trust everyone (and Express refuses it).
  return prefix === undefined || (/^[1-9]\d{0,2}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * TRUST_PROXY: `true` means the one load balancer in front (1 hop), never "trust every
 * X-Forwarded-For entry" (a caller could then pick its own address and escape per-address limits);
 * a number is that many hops; otherwise a list of trusted addresses, subnets or Express's names
 * (`loopback`, `linklocal`, `uniquelocal`).
 */
function trustedProxies(value: string | undefined): false | number | string[] {
  const text = value?.trim().toLowerCase() ?? '';
  if (['', 'false', '0', 'no', 'off'].includes(text)) return false;
  if (['true', 'yes', 'on'].includes(text)) return 1;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = listOf(text);
  const unknown = entries.filter((entry) => !isTrustedProxyEntry(entry));
  if (unknown.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  TRUST_PROXY: ${unknown.join(', ')} is not true/false, a hop count, an address, a subnet with a CIDR prefix of 1 or more, or loopback/linklocal/uniquelocal`,
    );
  }
  return entries;
}

/** A URL of one of these schemes (`localhost:5432` parses as a URL of scheme `localhost:`). */
const isUrlOf = (value: string, protocols: string[]) => URL.canParse(value) && protocols.includes(new URL(value).protocol);
const HTTP = ['http:', 'https:'];

/** http(s) URLs only: `localhost:3000` parses as a URL of scheme `localhost:`, whose origin is the string 'null'. */
function originsOf(value: string, variable: string): string[] {
  return listOf(value).map((entry, index) => {
    const refused = (what: string) => new ConfigError(`Invalid configuration:\n  ${variable}: entry ${index + 1} is not ${what}`);
    if (!URL.canParse(entry)) throw refused('a URL');
    const url = new URL(entry);
    if (!HTTP.includes(url.protocol)) throw refused('an http(s) URL');
    return url.origin;
  });
}

/**
 * How an X402_RPC_URLS entry is named in an error: by its network only when that is plainly a
 * network's name or CAIP-2 id. A URL is never echoed, a hosted node's carries its API key, and
 * an entry pasted without its `<network>=` is all URL (or all key).
 */
function rpcEntryName(id: string, index: number): string {
  return /^(?:[a-z]+(?:-[a-z]+)*|eip155:\d{1,12})$/.test(id) ? `the entry for "${id}"` : `entry ${index + 1}`;
}

const urlSetting = (name: string, protocols: string[]) =>
  optionalString.pipe(
    z
      .string()
      .url()
      .refine((value) => isUrlOf(value, protocols), `${name} must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`)
      .optional(),
  );

/** A number setting: an empty value (`${VAR:-}` in compose) is unset, never 0. */
const numberSetting = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: numberSetting(z.coerce.number().int().min(0).max(65535).default(4000)),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: urlSetting('DATABASE_URL', ['postgres:', 'postgresql:']),
  DATA_DIR: z.string().min(1).default('./.data'),
  PUBLIC_URL: urlSetting('PUBLIC_URL', HTTP),
  SMTP_URL: urlSetting('SMTP_URL', ['smtp:', 'smtps:']),
  MAIL_FROM: z.string().min(3).default('Agent Commerce <no-reply@localhost>'),
  REDIS_URL: urlSetting('REDIS_URL', ['redis:', 'rediss:']),
  METRICS_TOKEN: optionalString.pipe(z.string().min(24, 'METRICS_TOKEN must be at least 24 characters').optional()),
  SHUTDOWN_GRACE_MS: numberSetting(z.coerce.number().int().min(0).max(600_000).default(10_000)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional()),
  INTERNAL_SECRET: optionalString.pipe(z.string().min(32, 'INTERNAL_SECRET must be at least 32 characters').optional()),
  SECRETS_KEY: optionalString.pipe(
    z.string().regex(/^[0-9a-f]{64}$/i, 'SECRETS_KEY must be 64 hex characters (32 bytes)').optional(),
  ),
  DB_POOL_MAX: numberSetting(z.coerce.number().int().min(1).max(200).default(20)),
  DB_POOL_ACQUIRE_TIMEOUT_MS: numberSetting(z.coerce.number().int().min(100).max(600_000).default(10_000)),
  API_KEY_CACHE_SECONDS: numberSetting(z.coerce.number().int().min(0).max(60).default(2)),
  TRUST_PROXY: optionalString,
  DAILY_CLAIM_USD: z.string().default('0.10'),
  SIGNUP_BONUS_USD: z.string().default('1.00'),
  PAYMENT_METHOD_BONUS_USD: z.string().default('2.00'),
  REFERRAL_BONUS_USD: z.string().default('1.00'),
  DEV_CREDITS_USD: z.string().default('5.00'),
  REFERRAL_MAX_REWARDS_PER_REFERRER: numberSetting(z.coerce.number().int().min(0).max(1_000_000).default(50)),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: urlSetting('STRIPE_API_URL', HTTP),
  X402_PAY_TO: optionalString.pipe(
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'X402_PAY_TO must be an EVM address')
      .refine((value) => checksummedAddress(value) !== null, 'X402_PAY_TO has a wrong EIP-55 checksum (its letter case): check it, or give it in lower case')
      .optional(),
  ),
  X402_NETWORK: z
    .string()
    .default('eip155:84532')
    .refine((value) => findNetwork(value) !== undefined, 'X402_NETWORK must be a known network (base, base-sepolia, eip155:8453, eip155:84532)'),
  X402_FACILITATOR_URL: urlSetting('X402_FACILITATOR_URL', HTTP),
  X402_SETTLEMENT: z.enum(['facilitator', 'verify-only']).default('facilitator'),
  X402_RPC_URLS: z
    .string()
    .default('')
    .transform((value, context) => {
      const urls: Record<string, string> = {};
      for (const [index, entry] of listOf(value).entries()) {
        const [id = '', url = ''] = entry.split(/=(.*)/s, 2).map((part) => part.trim());
        const network = findNetwork(id);
        if (!network || !z.string().url().safeParse(url).success || !/^https?:/.test(url)) {
          context.addIssue({ code: 'custom', message: `${rpcEntryName(id, index)} is not <network>=<http(s) URL> for a known network (eip155:8453, eip155:84532)` });
          continue;
        }
        if (urls[network.caip2]) {
          context.addIssue({ code: 'custom', message: `${network.caip2} has two nodes` });
          continue;
        }
        urls[network.caip2] = url;
      }
      return urls;
    }),
  SEED_CATALOGUE: booleanFlag(true),
  SEED_PUBLISHER_KEYS: z
    .string()
    .default('')
    .transform((value, context) => {
      const keys: Record<string, string> = {};
      for (const [index, entry] of listOf(value).entries()) {
        const [slug = '', key = ''] = entry.split(/=(.*)/s, 2).map((part) => part.trim());
        if (!/^[a-z0-9][a-z0-9-]*$/.test(slug) || !key) {
          context.addIssue({ code: 'custom', message: `entry ${index + 1} is not <publisher slug>=<upstream API key>` });
          continue;
        }
        keys[slug] = key;
      }
      return keys;
    }),
  PROXY_TIMEOUT_MS: numberSetting(z.coerce.number().int().min(100).max(600_000).default(30_000)),
  PROXY_ALLOW_PRIVATE_UPSTREAMS: booleanFlag(false),
  PROXY_ALLOWED_UPSTREAM_ORIGINS: z.string().default(''),
  CORS_ALLOWED_ORIGINS: z.string().default(''),
  PROXY_MAX_BUFFERED_BYTES: numberSetting(z.coerce.number().int().min(1024).max(1024 * 1024 * 1024).default(10 * 1024 * 1024)),
  PROXY_PUBLISHER_CACHE_SECONDS: numberSetting(z.coerce.number().int().min(0).max(300).default(5)),
  PROXY_HOLD_EXPIRY_SECONDS: numberSetting(z.coerce.number().int().min(60).max(86_400).default(600)),
  OAUTH_PROVIDERS: z.string().default(''),
  OAUTH_ALLOWED_REDIRECTS: z.string().default(''),
  DATA_PLANE_DATABASE_URL: urlSetting('DATA_PLANE_DATABASE_URL', ['postgres:', 'postgresql:']),
  DATA_PLANE_NAME_PREFIX: z.string().regex(/^[a-z][a-z0-9_]{0,19}$/, 'DATA_PLANE_NAME_PREFIX must be 1 to 20 lower-case letters, digits or _, starting with a letter').default('acp_'),
  DATABASE_REGIONS: z.string().default('local'),
  ENDPOINT_IDLE_SUSPEND_SECONDS: numberSetting(z.coerce.number().int().min(10).max(604_800).default(300)),
  BRANCH_PARENT_WAIT_MS: numberSetting(z.coerce.number().int().min(0).max(60_000).default(2_000)),
  SQL_STATEMENT_TIMEOUT_MS: numberSetting(z.coerce.number().int().min(100).max(3_600_000).default(30_000)),
  SQL_MAX_ROWS: numberSetting(z.coerce.number().int().min(1).max(1_000_000).default(1_000)),
  SQL_MAX_RESULT_BYTES: numberSetting(z.coerce.number().int().min(1024).max(256 * 1024 * 1024).default(5 * 1024 * 1024)),
  SQL_MAX_CONCURRENT_PER_PROJECT: numberSetting(z.coerce.number().int().min(1).max(100).default(4)),
  DATABASE_COMPUTE_SECOND_PRICE_MICROS: numberSetting(z.coerce.number().int().min(0).max(1_000_000).default(28)),
  DATABASE_STORAGE_BYTE_HOUR_PRICE_MICROS: numberSetting(z.coerce.number().int().min(0).max(1_000_000).default(0)),
  GRAPHQL_ONE_HOP: booleanFlag(true),
  PUBLIC_ANSWER_CACHE_SECONDS: numberSetting(z.coerce.number().int().min(0).max(300).default(5)),
  CATALOGUE_READS_PER_MINUTE: numberSetting(z.coerce.number().int().min(1).max(1_000_000).default(1200)),
  FEDERATION_MAX_DATA_BYTES: numberSetting(z.coerce.number().int().min(256).max(1024 * 1024).default(64 * 1024)),
  EVAL_MIN_SIGNALS: numberSetting(z.coerce.number().int().min(1).max(1_000_000).default(20)),
  EVAL_HALF_LIFE_DAYS: numberSetting(z.coerce.number().positive().max(3650).default(30)),
  EVAL_MAX_PSEUDO_COUNT_PER_ORG: numberSetting(z.coerce.number().positive().max(1_000_000).default(50)),
});

/**
 * How many PROXY_TIMEOUT_MS a paid call can spend between its hold and its charge, at worst: a
 * token exchange of four hops (connect, headers and body each), then the call (connect, headers,
 * and a body read whole), with a margin. A hold younger than that may still be in flight.
 */
const CALL_TIMEOUTS_AT_MOST = 16;
const longestCallSecondsOf = (timeoutMs: number) => Math.ceil((CALL_TIMEOUTS_AT_MOST * timeoutMs) / 1000);

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  redisUrl?: string;
  /** Bearer token that GET /metrics requires; without one the endpoint does not exist. */
  metricsToken?: string;
  /** Browser origins (dashboards) allowed to call the API from another site; none by default. */
  corsAllowedOrigins: string[];
  logLevel: string;
  /** How long a stopping process lets requests in flight (paid calls, streams) finish before cutting them. */
  shutdownGraceMs: number;
  dbPoolMax: number;
  /** How long a request waits for a pooled connection before it is answered 503 database_unavailable. */
  dbPoolAcquireTimeoutMs: number;
  /** How long a process trusts an API key it resolved (0: every request reads it). */
  apiKeyCacheSeconds: number;
  /** Express's `trust proxy`: false, a hop count, or the trusted proxies' addresses, subnets or names. */
  trustProxy: false | number | string[];
  secrets: Record<SecretName, string>;
  /** Wallet amounts in micro-dollars. */
  /** developmentCredits: one grant a UTC day per account, outside production only. */
  wallet: { dailyClaim: bigint; signupBonus: bigint; paymentMethodBonus: bigint; referralBonus: bigint; maxReferralRewards: number; developmentCredits: bigint };
  stripe: { secretKey?: string; webhookSecret?: string; apiUrl?: string };
  /**
   * network: CAIP-2 id (v1 names are derived where v1 needs them); rpcUrls: a JSON-RPC node per
   * CAIP-2 network, to resolve payments the facilitator left unanswered.
   */
  x402: { payTo?: string; network: string; facilitatorUrl?: string; settlement: 'facilitator' | 'verify-only'; rpcUrls: Record<string, string> };
  /** Load the starter catalogue at start when the marketplace is empty (development only). */
  seedCatalogue: boolean;
  /** SEED_PUBLISHER_KEYS: upstream keys of catalogue publishers that need one (by slug); without its key a seed is not loaded. */
  seedPublisherKeys: Record<string, string>;
  /** Operations one in-process subgraph alone answers run on it directly (false: all through the gateway's plan). */
  graphqlOneHop: boolean;
  /** How long the catalogue's public pages are kept (0: never); changes announced forget them at once. */
  publicAnswerCacheSeconds: number;
  /** Catalogue reads that reach the database (listing, search, suggestions), per caller address. */
  catalogueReadsPerMinute: number;
  /** Outbound calls to publisher upstreams. */
  proxy: {
    timeoutMs: number;
    allowPrivateUpstreams: boolean;
    allowedUpstreamOrigins: string[];
    maxBufferedBytes: number;
    publisherCacheSeconds: number;
    /** The longest a paid call can take between its hold (or its payment's verification) and its charge (CALL_TIMEOUTS_AT_MOST). */
    longestCallSeconds: number;
    holdExpirySeconds: number;
  };
  /** SUBGRAPH_<NAME>_URL: subgraphs reached over HTTP instead of in-process. */
  subgraphUrls: Record<string, string>;
  /** Managed databases: where user data lives (never the platform's own server) and the limits on user SQL. */
  databases: {
    /** A role with CREATEDB and CREATEROLE; unset: an embedded cluster under DATA_DIR/data-plane. */
    dataPlaneUrl?: string;
    /** Every database and role the platform creates on the data plane starts with it. */
    namePrefix: string;
    regions: string[];
    idleSuspendSeconds: number;
    branchParentWaitMs: number;
    statementTimeoutMs: number;
    maxRows: number;
    maxResultBytes: number;
    maxConcurrentPerProject: number;
    computeSecondPriceMicros: bigint;
    storageByteHourPriceMicros: bigint;
  };
  /** Federated resources: the largest `data` document, in bytes of its JSON. */
  federation: { maxDataBytes: number };
  /**
   * Evaluation routing: cells below minSignals are not `sufficient`; recency weights halve every
   * halfLifeDays; one organization adds at most maxPseudoCountPerOrg to the community prior.
   */
  eval: { minSignals: number; halfLifeDays: number; maxPseudoCountPerOrg: number };
  /** OAuth connections: global providers, and where users may be sent back after authorizing. */
  oauth: { providers: ConfiguredOAuthProvider[]; allowedRedirects: { urls: string[]; origins: string[] } };
}

/** OAUTH_PROVIDERS and OAUTH_ALLOWED_REDIRECTS; unset redirects allow PUBLIC_URL's origin alone. */
function oauthSettings(values: { OAUTH_PROVIDERS: string; OAUTH_ALLOWED_REDIRECTS: string }, publicUrl: string): Config['oauth'] {
  const providers = parseOAuthProviders(values.OAUTH_PROVIDERS);
  const redirects = parseAllowedRedirects(values.OAUTH_ALLOWED_REDIRECTS);
  const problems = [
    ...providers.problems.map((problem) => `  OAUTH_PROVIDERS: ${problem}`),
    ...redirects.problems.map((problem) => `  OAUTH_ALLOWED_REDIRECTS: ${problem}`),
  ];
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const unset = redirects.urls.length === 0 && redirects.origins.length === 0;
  return {
    providers: providers.providers,
    allowedRedirects: unset ? { urls: [], origins: [new URL(publicUrl).origin] } : { urls: redirects.urls, origins: redirects.origins },
  };
}

export class ConfigError extends Error {}

function generateSecret(name: SecretName): string {
  return name === 'SECRETS_KEY' ? randomBytes(32).toString('hex') : randomBytes(48).toString('base64url');
}

function readSecretsFile(file: string): Partial<Record<SecretName, string>> {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new ConfigError(`Invalid configuration:\n  ${file} is not valid JSON: repair it, or remove it to generate new development secrets`);
  }
}

/**
 * Development secrets are generated once and kept in DATA_DIR so tokens survive restarts.
 * Processes started together (split mode) must all end with the same ones: the file is written
 * whole under another name and put in place only if none is there yet (a hard link fails when it
 * exists), then read back, so every process takes the first writer's secrets.
 */
function loadDevelopmentSecrets(dataDir: string, provided: Partial<Record<SecretName, string>>) {
  const file = path.join(dataDir, 'secrets.json');
  let stored = readSecretsFile(file);
  // Twice at most: a file that appeared meanwhile, or one lacking a secret (an older version's), is completed in place.
  for (let attempt = 0; attempt < 2 && SECRET_NAMES.some((name) => !stored[name]); attempt++) {
    mkdirSync(dataDir, { recursive: true });
    const completed = { ...stored };
    for (const name of SECRET_NAMES) completed[name] ??= generateSecret(name);
    const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
    writeFileSync(draft, JSON.stringify(completed, null, 2), { mode: 0o600 });
    try {
      if (attempt === 0 && Object.keys(stored).length === 0) linkSync(draft, file);
      else renameSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
    stored = readSecretsFile(file);
  }
  return Object.fromEntries(SECRET_NAMES.map((name) => [name, provided[name] ?? stored[name]!])) as Record<
    SecretName,
    string
  >;
}

/** Settings for development and testnets that would let a production platform be used against itself or unpaid. */
function refuseDevelopmentOnlySettings(values: { PROXY_ALLOW_PRIVATE_UPSTREAMS: boolean; X402_SETTLEMENT: string; X402_NETWORK: string }): void {
  if (values.PROXY_ALLOW_PRIVATE_UPSTREAMS) {
    throw new ConfigError(
      'Invalid configuration:\n  PROXY_ALLOW_PRIVATE_UPSTREAMS: not in production (publishers could reach the platform’s own network); list internal upstreams in PROXY_ALLOWED_UPSTREAM_ORIGINS',
    );
  }
  if (values.X402_SETTLEMENT === 'verify-only' && findNetwork(values.X402_NETWORK)?.testnet === false) {
    throw new ConfigError('Invalid configuration:\n  X402_SETTLEMENT: verify-only on Base mainnet would serve calls whose payments are never collected');
  }
}

/** DATABASE_REGIONS: at least one region name, lower-case letters, digits and dashes. */
function databaseRegions(value: string): string[] {
  const regions = listOf(value);
  if (regions.length === 0 || regions.some((region) => !/^[a-z0-9][a-z0-9-]{0,39}$/.test(region))) {
    throw new ConfigError('Invalid configuration:\n  DATABASE_REGIONS: a comma-separated list of region names (lower-case letters, digits and -)');
  }
  return [...new Set(regions)];
}

/** A promotion's amount: above 0, as a claim of nothing is refused by the ledger. */
function configMoney(value: string, name: string): bigint {
  let amount: bigint;
  try {
    amount = parseMoney(value, name);
  } catch {
    throw new ConfigError(`Invalid configuration:\n  ${name}: must be a decimal amount such as 0.10`);
  }
  if (amount <= 0n) throw new ConfigError(`Invalid configuration:\n  ${name}: must be above 0`);
  return amount;
}

/**
 * The configuration for an entry point (the platform, a subgraph process, an operator command): a
 * bad setting exits 1 with its message alone, for the operator, not a stack trace; so does a
 * ConfigError from `check`, the entry point's own checks of it.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env, check?: (config: Config) => void): Config {
  try {
    const config = loadConfig(env);
    check?.(config);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  const provided: Partial<Record<SecretName, string>> = {};
  for (const name of SECRET_NAMES) if (values[name]) provided[name] = values[name];

  let secrets: Record<SecretName, string>;
  if (values.NODE_ENV === 'production') {
    const missing = SECRET_NAMES.filter((name) => !provided[name]);
    if (missing.length > 0) {
      throw new ConfigError(`Missing required secrets in production: ${missing.join(', ')}. Set them in the environment.`);
    }
    refuseDevelopmentOnlySettings(values);
    secrets = provided as Record<SecretName, string>;
  } else {
    secrets = loadDevelopmentSecrets(dataDir, provided);
  }

  const subgraphUrls: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const match = /^SUBGRAPH_([A-Z0-9_]+)_URL$/.exec(key);
    if (!match || !value?.trim()) continue;
    if (!isUrlOf(value.trim(), HTTP)) {
      throw new ConfigError(`Invalid configuration:\n  ${key}: must be the subgraph's http(s) URL, e.g. http://accounts:4000/graphql`);
    }
    subgraphUrls[match[1]!.toLowerCase()] = value.trim();
  }

  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, '');
  return {
    nodeEnv: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    databaseUrl: values.DATABASE_URL,
    dataDir,
    publicUrl,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    redisUrl: values.REDIS_URL,
    metricsToken: values.METRICS_TOKEN,
    corsAllowedOrigins: originsOf(values.CORS_ALLOWED_ORIGINS, 'CORS_ALLOWED_ORIGINS'),
    shutdownGraceMs: values.SHUTDOWN_GRACE_MS,
    logLevel: values.LOG_LEVEL,
    dbPoolMax: values.DB_POOL_MAX,
    dbPoolAcquireTimeoutMs: values.DB_POOL_ACQUIRE_TIMEOUT_MS,
    apiKeyCacheSeconds: values.API_KEY_CACHE_SECONDS,
    trustProxy: trustedProxies(values.TRUST_PROXY),
    secrets,
    wallet: {
      dailyClaim: configMoney(values.DAILY_CLAIM_USD, 'DAILY_CLAIM_USD'),
      developmentCredits: configMoney(values.DEV_CREDITS_USD, 'DEV_CREDITS_USD'),
      signupBonus: configMoney(values.SIGNUP_BONUS_USD, 'SIGNUP_BONUS_USD'),
      paymentMethodBonus: configMoney(values.PAYMENT_METHOD_BONUS_USD, 'PAYMENT_METHOD_BONUS_USD'),
      referralBonus: configMoney(values.REFERRAL_BONUS_USD, 'REFERRAL_BONUS_USD'),
      maxReferralRewards: values.REFERRAL_MAX_REWARDS_PER_REFERRER,
    },
    stripe: { secretKey: values.STRIPE_SECRET_KEY, webhookSecret: values.STRIPE_WEBHOOK_SECRET, apiUrl: values.STRIPE_API_URL },
    x402: {
      payTo: values.X402_PAY_TO,
      network: values.X402_NETWORK,
      facilitatorUrl: values.X402_FACILITATOR_URL,
      settlement: values.X402_SETTLEMENT,
      rpcUrls: values.X402_RPC_URLS,
    },
    subgraphUrls,
    oauth: oauthSettings(values, publicUrl),
    databases: {
      dataPlaneUrl: values.DATA_PLANE_DATABASE_URL,
      namePrefix: values.DATA_PLANE_NAME_PREFIX,
      regions: databaseRegions(values.DATABASE_REGIONS),
      idleSuspendSeconds: values.ENDPOINT_IDLE_SUSPEND_SECONDS,
      branchParentWaitMs: values.BRANCH_PARENT_WAIT_MS,
      statementTimeoutMs: values.SQL_STATEMENT_TIMEOUT_MS,
      maxRows: values.SQL_MAX_ROWS,
      maxResultBytes: values.SQL_MAX_RESULT_BYTES,
      maxConcurrentPerProject: values.SQL_MAX_CONCURRENT_PER_PROJECT,
      computeSecondPriceMicros: BigInt(values.DATABASE_COMPUTE_SECOND_PRICE_MICROS),
      storageByteHourPriceMicros: BigInt(values.DATABASE_STORAGE_BYTE_HOUR_PRICE_MICROS),
    },
    seedCatalogue: values.SEED_CATALOGUE,
    seedPublisherKeys: values.SEED_PUBLISHER_KEYS,
    graphqlOneHop: values.GRAPHQL_ONE_HOP,
    publicAnswerCacheSeconds: values.PUBLIC_ANSWER_CACHE_SECONDS,
    catalogueReadsPerMinute: values.CATALOGUE_READS_PER_MINUTE,
    proxy: {
      timeoutMs: values.PROXY_TIMEOUT_MS,
      allowPrivateUpstreams: values.PROXY_ALLOW_PRIVATE_UPSTREAMS,
      allowedUpstreamOrigins: originsOf(values.PROXY_ALLOWED_UPSTREAM_ORIGINS, 'PROXY_ALLOWED_UPSTREAM_ORIGINS'),
      maxBufferedBytes: values.PROXY_MAX_BUFFERED_BYTES,
      publisherCacheSeconds: values.PROXY_PUBLISHER_CACHE_SECONDS,
      longestCallSeconds: longestCallSecondsOf(values.PROXY_TIMEOUT_MS),
      holdExpirySeconds: Math.max(values.PROXY_HOLD_EXPIRY_SECONDS, longestCallSecondsOf(values.PROXY_TIMEOUT_MS)),
    },
    federation: { maxDataBytes: values.FEDERATION_MAX_DATA_BYTES },
    eval: {
      minSignals: values.EVAL_MIN_SIGNALS,
      halfLifeDays: values.EVAL_HALF_LIFE_DAYS,
      maxPseudoCountPerOrg: values.EVAL_MAX_PSEUDO_COUNT_PER_ORG,
    },
  };
}
