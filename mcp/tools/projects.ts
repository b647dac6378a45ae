import { z } from 'zod';
import { listResult } from '../results.js';
import { CREATES, defineTool, DELETES, READS } from '../tool.js';
import { listOf, projectId, record } from './fields.js';
import { callField, listField } from './platform-field.js';

export const projectTools = [
  defineTool({
    name: 'list_projects',
    title: 'List database projects',
    description: "Lists the managed PostgreSQL projects of your organizations (id, name, region, state). Free; changes nothing.",
    toolset: 'projects',
    annotations: READS,
    input: {},
    output: listOf('projects'),
    async run(_args, context) {
      const all = await listField(context, 'projects', {});
      const scoped = context.settings.projectId ? all.filter((project) => project.id === context.settings.projectId) : all;
      return listResult('projects', scoped, context.settings.maxRows, 'More projects exist than MCP_MAX_ROWS allows; set MCP_PROJECT_ID to work in one');
    },
  }),
  defineTool({
    name: 'create_project',
    title: 'Create a database project',
    description:
      'Creates a managed PostgreSQL project (with its main branch and a database) in your organization, in the given region. ' +
      'Answers the project and its connection URI; the password in it is shown only this once, so keep it. Creates billable resources.',
    toolset: 'projects',
    annotations: CREATES,
    makesProjects: true,
    input: {
      name: z.string().min(1).max(100).describe('A name for the project'),
      region: z.string().min(1).describe('Where it runs, e.g. aws-us-east-1'),
    },
    output: record,
    run: (args, context) => callField(context, 'mutation', 'createProject', { input: { name: args.name, region: args.region } }),
  }),
  defineTool({
    name: 'describe_project',
    title: 'Describe a database project',
    description: 'Shows one project: its branches, size, endpoint state and connection host/port (never the password). Free; changes nothing.',
    toolset: 'projects',
    annotations: READS,
    input: { project_id: projectId },
    output: record,
    run: (args, context) => callField(context, 'query', 'project', { projectId: args.project_id }),
  }),
  defineTool({
    name: 'delete_project',
    title: 'Delete a database project',
    description: 'Deletes a project with all its branches, databases and data, for good. It cannot be undone.',
    toolset: 'projects',
    annotations: DELETES,
    input: { project_id: projectId },
    output: z.object({ deleted: z.boolean(), project_id: z.string() }),
    async run(args, context) {
      const deleted = await callField<boolean>(context, 'mutation', 'deleteProject', { projectId: args.project_id });
      return { deleted, project_id: args.project_id };
    },
  }),
];
