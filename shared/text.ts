/** A lone surrogate half, which UTF-8 (and so PostgreSQL's text and jsonb) cannot hold. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text PostgreSQL refuses to store: U+0000 or a lone surrogate. */
export const isUnstorableText = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);
