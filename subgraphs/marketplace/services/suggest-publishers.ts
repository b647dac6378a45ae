import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import type { Publisher } from '../entities/publisher.js';
import { limitCatalogueReads } from './catalogue-reads.js';
import { searchText } from './list-publishers.js';
import { routingSuccessOf, successReason } from './routing-success.js';
import { searchPublisherIds } from './search-publishers.js';
import { catalogueRecordsOf } from './catalogue-records.js';

export interface Suggestion {
  publisher: Publisher;
  score: number;
  matchReason: string;
}

const SUGGESTION_LIMIT = 10;
/** Use counts toward the score on a log scale, saturating at this many queries. */
const USAGE_SATURATION = 100_000;

const wordsOf = (text: string) => text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 3);
/** Same word, allowing a simple plural or one typo-sized difference in the stem. */
const sameWord = (a: string, b: string) => a === b || a.startsWith(b.slice(0, -1)) || b.startsWith(a.slice(0, -1));
const mentions = (text: string, words: string[]) => words.find((word) => wordsOf(text).some((other) => sameWord(word, other)));

/** A sentence naming what matched, most specific first. */
export function matchReasonOf(publisher: Publisher, query: string): string {
  const words = wordsOf(query);
  const checks: [string[], (value: string, word: string) => string][] = [
    [publisher.capabilities, (value) => `capability '${value}' matches`],
    [[publisher.publisherCategory], (value) => `category ${value}`],
    [publisher.categories, (value) => `category '${value}' matches`],
    [publisher.useCases, (value) => `use case '${value}' matches`],
    [[publisher.name], (value) => `name '${value}' matches`],
    [[publisher.resourceName], (value) => `resource '${value}' matches`],
  ];
  for (const [values, sentence] of checks) {
    for (const value of values) {
      const word = mentions(value, words);
      if (word) return sentence(value, word);
    }
  }
  const described = mentions(`${publisher.description} ${publisher.resourceDescription}`, words);
  if (described) return `description mentions '${described}'`;
  return `similar to '${query}'`;
}

/** 80% text relevance, 10% verification, 10% use (log scale): always within 0..1. */
export function scoreOf(relevance: number, publisher: Publisher): number {
  const usage = Math.min(1, Math.log1p(publisher.totalQueries) / Math.log1p(USAGE_SATURATION));
  const score = 0.8 * Math.min(1, relevance) + 0.1 * (publisher.isVerified ? 1 : 0) + 0.1 * usage;
  return Math.round(score * 1000) / 1000;
}

/** GET /publishers/suggest?query=...: ranked publishers with a score and the reason they match. */
export async function suggestPublishers(context: RequestContext, query: string | null | undefined): Promise<Suggestion[]> {
  const text = searchText(query);
  if (!text) throw badRequest('missing_query', 'query is required');
  await limitCatalogueReads(context);
  const ranked = await searchPublisherIds(context.em, text, {}, { limit: SUGGESTION_LIMIT * 2, offset: 0 });
  const relevance = new Map(ranked.map((row) => [row.id, row.relevance]));
  const publishers = await catalogueRecordsOf(context.services).inOrder(context, ranked.map((row) => row.id));
  // Publishers of equal score are ranked by the community's success on their routing task.
  const success = await routingSuccessOf(context, publishers);
  const successOf = (publisher: Publisher) => success.get(publisher.slug)?.successRate ?? -1;
  return publishers
    .map((publisher) => {
      const rate = success.get(publisher.slug);
      const matchReason = matchReasonOf(publisher, text) + (rate ? `; ${successReason(rate)}` : '');
      return { publisher, score: scoreOf(relevance.get(publisher.id) ?? 0, publisher), matchReason };
    })
    .sort((a, b) => b.score - a.score || successOf(b.publisher) - successOf(a.publisher))
    .slice(0, SUGGESTION_LIMIT);
}
