import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublisherSuccessRate, PublisherTask } from '../../../shared/ports.js';

/** The `publisherSuccessRates` port: community success of each (publisher, task type) asked, when it has signals. */
export async function publisherSuccessRates(em: EntityManager, asks: PublisherTask[]): Promise<PublisherSuccessRate[]> {
  if (asks.length === 0) return [];
  const rows: { task_type: string; publisher_slug: string; signals: string; success_sum: number }[] = await em.execute(
    `select c.task_type, c.publisher_slug, c.signals, c.success_sum
     from jsonb_to_recordset(?::jsonb) as a(task_type text, publisher_slug text)
     join eval_publisher_cell c on c.task_type = a.task_type and c.publisher_slug = a.publisher_slug
     where c.signals > 0`,
    [JSON.stringify(asks.map((ask) => ({ task_type: ask.taskType, publisher_slug: ask.publisherSlug })))],
  );
  return rows.map((row) => ({
    publisherSlug: row.publisher_slug,
    taskType: row.task_type,
    signals: Number(row.signals),
    successRate: row.success_sum / Number(row.signals),
  }));
}
