import { afterAll, beforeAll } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { describeRouteEquivalence } from '../support/route-equivalence.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());

describeRouteEquivalence(() => ({ api: t.api, mailbox: t.mailbox, apiSchema: t.platform.apiSchema }));
