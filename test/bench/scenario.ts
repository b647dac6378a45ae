import type { PlatformServices } from '../../shared/services.js';
import type { Api } from '../support/http.js';
import type { Measurement, MeasureOptions } from './measure.js';

/** One printed line of `npm run bench`. */
export interface BenchRow {
  scenario: string;
  case: string;
  /** Either an HTTP measurement or a free-form figure (e.g. debits per second). */
  measurement?: Measurement;
  figures?: Record<string, number | string>;
}

export interface BenchContext {
  /** Base URL of the platform under test, e.g. http://127.0.0.1:43123 */
  url: string;
  api: Api;
  services: PlatformServices;
  measure(options: MeasureOptions): Promise<Measurement>;
  /** The platform's GET /metrics, as Prometheus text. */
  scrapeMetrics(): Promise<string>;
}

/** A bench scenario: sets up its own data through the API or services, then measures. */
export interface BenchScenario {
  name: string;
  run(context: BenchContext): Promise<BenchRow[]>;
}
