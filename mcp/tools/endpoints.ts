import { z } from 'zod';
import { CREATES, defineTool, READS, SWITCHES } from '../tool.js';
import { branchId, listOf, projectId, record } from './fields.js';
import { branchArgs, callField, listAnswer } from './platform-field.js';

const endpointArgs = { project_id: projectId, branch_id: branchId, endpoint_id: z.string().min(1).describe('The endpoint id (list_endpoints shows them)') };
const endpointVariables = (args: { project_id: string; branch_id: string; endpoint_id: string }) => ({ ...branchArgs(args), endpointId: args.endpoint_id });

export const endpointTools = [
  defineTool({
    name: 'list_endpoints',
    title: 'List compute endpoints',
    description: "Lists a branch's compute endpoints (id, state: active or suspended, autoscaling, host). Free; changes nothing.",
    toolset: 'endpoints',
    annotations: READS,
    input: { project_id: projectId, branch_id: branchId },
    output: listOf('endpoints'),
    run: (args, context) => listAnswer(context, 'endpoints', 'endpoints', branchArgs(args), 'More endpoints exist than MCP_MAX_ROWS allows'),
  }),
  defineTool({
    name: 'create_endpoint',
    title: 'Create a compute endpoint',
    description: 'Adds a compute endpoint (a connection host) to a branch, with optional autoscaling bounds in compute units. Billable while active.',
    toolset: 'endpoints',
    annotations: CREATES,
    input: {
      project_id: projectId,
      branch_id: branchId,
      autoscaling_min: z.number().int().min(0).optional().describe('Fewest compute units'),
      autoscaling_max: z.number().int().min(0).optional().describe('Most compute units'),
    },
    output: record,
    run: (args, context) =>
      callField(context, 'mutation', 'createEndpoint', {
        input: { ...branchArgs(args), autoscalingMin: args.autoscaling_min, autoscalingMax: args.autoscaling_max },
      }),
  }),
  defineTool({
    name: 'start_endpoint',
    title: 'Start a suspended endpoint',
    description: 'Starts a suspended compute endpoint so the branch answers connections again (an active one stays as it is). Billable while active.',
    toolset: 'endpoints',
    annotations: SWITCHES,
    input: endpointArgs,
    output: record,
    run: (args, context) => callField(context, 'mutation', 'startEndpoint', endpointVariables(args)),
  }),
  defineTool({
    name: 'suspend_endpoint',
    title: 'Suspend an endpoint',
    description: 'Suspends a compute endpoint: its connections are closed and it stops costing; the data stays. start_endpoint resumes it.',
    toolset: 'endpoints',
    annotations: SWITCHES,
    input: endpointArgs,
    output: record,
    run: (args, context) => callField(context, 'mutation', 'suspendEndpoint', endpointVariables(args)),
  }),
];
