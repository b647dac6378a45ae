const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids arrive as strings; a non-uuid can never match a row, and must not reach Postgres as one. */
export const isUuid = (value: string) => UUID.test(value);
