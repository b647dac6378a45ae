declare module 'pg-cursor' {
  import type { CustomTypesConfig, FieldDef, Submittable } from 'pg';

  interface CursorResult {
    fields: FieldDef[];
    command: string | null;
    rowCount: number | null;
  }

  export default class Cursor<Row = Record<string, unknown>> implements Submittable {
    constructor(text: string, values?: unknown[] | null, config?: { rowMode?: 'array'; types?: CustomTypesConfig });
    submit: Submittable['submit'];
    read(rows: number): Promise<Row[]>;
    close(): Promise<void>;
    readonly _result: CursorResult;
  }
}
