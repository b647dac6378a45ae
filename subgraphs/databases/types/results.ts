import { GraphQLJSON } from 'graphql-scalars';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { DatabaseProject } from '../entities/project.js';

@ObjectType()
export class CreatedProject {
  @Field(() => DatabaseProject) project!: DatabaseProject;
  @Field(() => String, { description: 'postgresql:// URI of the default branch’s database, with the password: shown once' }) connectionUri!: string;
  @Field(() => String) password!: string;
}

@ObjectType()
export class SqlField {
  @Field(() => String) name!: string;
  @Field(() => String) dataTypeName!: string;
}

@ObjectType()
export class SqlResult {
  @Field(() => [GraphQLJSON]) rows!: Record<string, unknown>[];
  @Field(() => [SqlField]) fields!: SqlField[];
  @Field(() => Int, { description: 'Rows returned, or affected by a write' }) rowCount!: number;
  @Field(() => Float) durationMs!: number;
  @Field(() => Boolean, { description: 'Rows were cut at SQL_MAX_ROWS or SQL_MAX_RESULT_BYTES' }) truncated!: boolean;
  @Field(() => String, { nullable: true }) command!: string | null;
}

@ObjectType()
export class DatabaseTable {
  @Field(() => String) schema!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'table, view, materialized_view, foreign_table or partitioned_table' }) type!: string;
  @Field(() => Float, { description: 'The planner’s row estimate' }) rowEstimate!: number;
  @Field(() => String, { description: 'Bytes, with indexes and TOAST (a decimal string)' }) totalSizeBytes!: string;
}

@ObjectType()
export class TableColumn {
  @Field(() => String) name!: string;
  @Field(() => String) dataType!: string;
  @Field(() => Boolean) nullable!: boolean;
  @Field(() => String, { nullable: true }) default!: string | null;
  @Field(() => Int) position!: number;
}

@ObjectType()
export class TableIndex {
  @Field(() => String) name!: string;
  @Field(() => String) definition!: string;
  @Field(() => Boolean) unique!: boolean;
  @Field(() => Boolean) primary!: boolean;
}

@ObjectType()
export class TableConstraint {
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'primary_key, unique, check, foreign_key or exclusion' }) type!: string;
  @Field(() => String) definition!: string;
}

@ObjectType()
export class TableForeignKey {
  @Field(() => String) name!: string;
  @Field(() => [String]) columns!: string[];
  @Field(() => String) referencedSchema!: string;
  @Field(() => String) referencedTable!: string;
  @Field(() => [String]) referencedColumns!: string[];
}

@ObjectType()
export class TableSchema {
  @Field(() => String) schema!: string;
  @Field(() => String) name!: string;
  @Field(() => [TableColumn]) columns!: TableColumn[];
  @Field(() => [TableIndex]) indexes!: TableIndex[];
  @Field(() => [TableConstraint]) constraints!: TableConstraint[];
  @Field(() => [TableForeignKey]) foreignKeys!: TableForeignKey[];
}
