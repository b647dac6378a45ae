import type { BenchScenario } from '../scenario.js';

/** The machine's own speed in this run (no database, then one query), so other figures can be read relative to it. */
export const baselineScenario: BenchScenario = {
  name: 'baseline',
  async run({ url, measure }) {
    const health = await measure({ url: `${url}/healthz`, connections: 10, durationSeconds: 3 });
    const ready = await measure({ url: `${url}/readyz`, connections: 10, durationSeconds: 3 });
    return [
      { scenario: 'baseline', case: 'GET /healthz (no database)', measurement: health },
      { scenario: 'baseline', case: 'GET /readyz (one query)', measurement: ready },
    ];
  },
};
