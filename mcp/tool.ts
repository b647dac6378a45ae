import type { z } from 'zod';
import type { ElicitRequestFormParams, ElicitResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { McpSettings, McpToolset } from '../shared/config.js';
import type { PlatformClient } from './platform/platform-client.js';
import type { SchemaCatalog } from './platform/schema-catalog.js';

/** What a tool runs with: the platform as the caller, the settings, and a way to ask the person (when the client offers one). */
export interface ToolContext {
  platform: PlatformClient;
  catalog: SchemaCatalog;
  settings: McpSettings;
  /** Form elicitation, when the client declared it; null otherwise (the tool then asks for `confirm: true`). */
  elicit: ((params: Omit<ElicitRequestFormParams, 'mode'>) => Promise<ElicitResult>) | null;
}

/** One tool, declared as data: what the agent sees, and one small handler. */
export interface ToolDefinition<Input extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  /** What it does, what it costs, what it changes. */
  description: string;
  toolset: McpToolset;
  annotations: ToolAnnotations;
  input: Input;
  output: z.ZodObject;
  /** Offered in read-only mode although not read-only: it runs its SQL in a read-only transaction. */
  runsReadOnly?: boolean;
  /** Not offered when MCP_PROJECT_ID holds every tool to one project (it would make another). */
  makesProjects?: boolean;
  run(args: z.output<z.ZodObject<Input>>, context: ToolContext): Promise<Record<string, unknown>>;
}

export const defineTool = <Input extends z.ZodRawShape>(tool: ToolDefinition<Input>): ToolDefinition => tool as unknown as ToolDefinition;

/** Annotations that tell the truth (the SDK's defaults say "not read-only, destructive"). */
export const READS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const CREATES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const SWITCHES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const DELETES: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
export const RUNS_SQL: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
/** Spends the wallet on a publisher outside the platform. */
export const PAYS: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
