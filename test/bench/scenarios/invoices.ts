import type { EntityManager } from '@mikro-orm/postgresql';
import { createRequestContext } from '../../../shared/context.js';
import { generateInvoices } from '../../../subgraphs/billing/services/generate-invoices.js';
import { withPeakPostgresMemory } from '../postgres-memory.js';
import type { BenchRow, BenchScenario } from '../scenario.js';

const ORGANIZATIONS = 10_000;
const METERS = ['database.compute_seconds', 'database.storage_byte_hours', 'compute.hours'];
const PERIOD = '2001-01';
const DAYS = 31;

/**
 * Invoice generation for 10,000 organizations with a month of usage (a record per meter per day:
 * 930,000 records): the operator's run, timed, with PostgreSQL's peak memory above its baseline;
 * then the same run again (nothing new to create).
 */
export const invoicesScenario: BenchScenario = {
  name: 'invoices',
  async run({ services }): Promise<BenchRow[]> {
    const em = services.orm.em.fork() as EntityManager;
    const loadStarted = process.hrtime.bigint();
    await em.execute(
      `insert into billing_usage_record (id, idempotency_key, organization_id, meter, quantity, unit_price_micros, occurred_at, created_at)
       select gen_random_uuid(), 'bench:' || o.n || ':' || m.meter || ':' || d.day, o.id, m.meter, (random() * 1000)::numeric(30, 9), m.price,
              ?::timestamptz + make_interval(days => d.day, hours => 12), now()
         from (select n, gen_random_uuid() as id from generate_series(1, ?) as n) as o
        cross join (values ('${METERS[0]}', 100), ('${METERS[1]}', 1), ('${METERS[2]}', 40000)) as m(meter, price)
        cross join generate_series(0, ?) as d(day)`,
      [`${PERIOD}-01T00:00:00Z`, ORGANIZATIONS, DAYS - 1],
    );
    await em.execute('analyze billing_usage_record');
    const loadSeconds = Number(process.hrtime.bigint() - loadStarted) / 1e9;
    const operator = () => createRequestContext(services, 'bench-invoices', null, '127.0.0.1', true);
    const timed = async () => {
      const started = process.hrtime.bigint();
      const measured = await withPeakPostgresMemory(() => generateInvoices(operator(), PERIOD));
      return { ...measured, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
    };
    const first = await timed();
    const again = await timed();
    return [
      {
        scenario: 'invoices',
        case: `generate for ${ORGANIZATIONS} organizations (${ORGANIZATIONS * METERS.length * DAYS} usage records)`,
        figures: {
          seconds: first.seconds.toFixed(2),
          created: first.result.created,
          lines: ORGANIZATIONS * METERS.length,
          'postgres peak MiB': first.peakMiB,
          'postgres baseline MiB': first.baselineMiB,
          'usage load seconds': loadSeconds.toFixed(1),
        },
      },
      {
        scenario: 'invoices',
        case: 'generate the same period again (nothing new)',
        figures: { seconds: again.seconds.toFixed(2), created: again.result.created, 'postgres peak MiB': again.peakMiB },
      },
    ];
  },
};
