import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';

const MARKER = 'development-agent.json';

async function callSelf(url: string, method: string, route: string, apiKey?: string): Promise<any> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: method === 'POST' ? '{}' : undefined,
  });
  const body: any = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status} ${body?.error?.code ?? ''}`);
  return body.data;
}

/**
 * A development start tells a newcomer what they need for a first paid call: where mails go, and,
 * on the first start of a data folder, one agent API key already holding development credits,
 * made through the public REST paths as a client would. The key is shown once (it is stored
 * hashed); the marker file records that it was made, never the key.
 */
export async function welcomeDeveloper(config: Config, url: string, log: Logger): Promise<void> {
  if (config.nodeEnv !== 'development') return;
  if (!config.smtpUrl) log.info({ mailDir: path.resolve(config.dataDir, 'mail') }, 'no SMTP_URL: mails are written as .eml files here, and each link is logged ("mail written")');
  const marker = path.join(config.dataDir, MARKER);
  if (existsSync(marker)) return;
  try {
    const { agent } = await callSelf(url, 'POST', '/auth/agent');
    const credit = await callSelf(url, 'POST', '/wallet/dev-credits', agent.api_key);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(marker, JSON.stringify({ agentId: agent.id, createdAt: new Date().toISOString() }, null, 2));
    log.info(
      { developmentApiKey: agent.api_key, balance: credit.balance, try: `curl -s ${url}/wallet/balance -H 'authorization: Bearer ${agent.api_key}'` },
      `development agent ready with ${credit.balance} USD of development credits (its key is shown this once; more: POST /wallet/dev-credits, once a day)`,
    );
  } catch (error) {
    log.warn({ err: error }, 'could not prepare a development agent; register one with POST /auth/agent');
  }
}
