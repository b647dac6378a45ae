import { Wallet } from 'ethers';
import { FakeFacilitator } from '../fakes/facilitator.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { signUpVerified } from './accounts.js';
import { startTestPlatform, type TestPlatform } from './platform.js';

/** A platform taking x402 payments on Base Sepolia through a fake facilitator, a local upstream, and a publisher owner. */
export interface X402TestBed {
  t: TestPlatform;
  upstream: FakeUpstream;
  facilitator: FakeFacilitator;
  /** Where payments to the platform itself go (X402_PAY_TO). */
  platformPayTo: string;
  ownerToken: string;
  close(): Promise<void>;
}

export async function startX402TestBed(env: Record<string, string> = {}): Promise<X402TestBed> {
  const upstream = await startFakeUpstream();
  const facilitator = await new FakeFacilitator().start();
  const platformPayTo = Wallet.createRandom().address;
  let t: TestPlatform | undefined;
  let ownerToken: string;
  try {
    t = await startTestPlatform({
      PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
      X402_PAY_TO: platformPayTo,
      X402_NETWORK: 'eip155:84532',
      X402_FACILITATOR_URL: facilitator.url,
      ...env,
    });
    ownerToken = (await signUpVerified(t)).accessToken;
  } catch (error) {
    // A failed start leaves nothing listening behind it.
    await Promise.allSettled([t?.close(), facilitator.close(), upstream.close()]);
    throw error;
  }
  const platform = t;
  return {
    t: platform,
    upstream,
    facilitator,
    platformPayTo,
    ownerToken,
    async close() {
      try {
        await platform.close();
      } finally {
        await Promise.all([facilitator.close(), upstream.close()]);
      }
    },
  };
}
