import { z } from 'zod';
import { CREATES, defineTool, DELETES, READS } from '../tool.js';
import { branchId, listOf, projectId, record } from './fields.js';
import { branchArgs, callField, listAnswer } from './platform-field.js';

export const branchTools = [
  defineTool({
    name: 'list_branches',
    title: 'List branches',
    description: 'Lists the branches of a project (id, name, parent, created_at). Free; changes nothing.',
    toolset: 'branches',
    annotations: READS,
    input: { project_id: projectId },
    output: listOf('branches'),
    run: (args, context) =>
      listAnswer(context, 'branches', 'branches', { projectId: args.project_id }, 'More branches exist than MCP_MAX_ROWS allows; describe_branch reads one'),
  }),
  defineTool({
    name: 'create_branch',
    title: 'Create a branch',
    description:
      'Creates a copy-on-write branch of a project: its databases as they are now on the parent branch (the main branch unless ' +
      'parent_branch_id is given). Writes on the branch never touch the parent. Creates a billable branch.',
    toolset: 'branches',
    annotations: CREATES,
    input: {
      project_id: projectId,
      name: z.string().min(1).max(100).describe('A name for the branch'),
      parent_branch_id: z.string().min(1).optional().describe('The branch to copy (default: the main branch)'),
    },
    output: record,
    run: (args, context) =>
      callField(context, 'mutation', 'createBranch', {
        input: { projectId: args.project_id, name: args.name, ...(args.parent_branch_id ? { parentBranchId: args.parent_branch_id } : {}) },
      }),
  }),
  defineTool({
    name: 'describe_branch',
    title: 'Describe a branch',
    description: 'Shows one branch: its parent, when it was made, its size. Free; changes nothing.',
    toolset: 'branches',
    annotations: READS,
    input: { project_id: projectId, branch_id: branchId },
    output: record,
    run: (args, context) => callField(context, 'query', 'branch', branchArgs(args)),
  }),
  defineTool({
    name: 'delete_branch',
    title: 'Delete a branch',
    description: 'Deletes a branch with its databases and data, for good (the parent is untouched). It cannot be undone.',
    toolset: 'branches',
    annotations: DELETES,
    input: { project_id: projectId, branch_id: branchId },
    output: z.object({ deleted: z.boolean(), branch_id: z.string() }),
    async run(args, context) {
      const deleted = await callField<boolean>(context, 'mutation', 'deleteBranch', branchArgs(args));
      return { deleted, branch_id: args.branch_id };
    },
  }),
];
