import type { ToolDefinition } from '../tool.js';
import { branchTools } from './branches.js';
import { endpointTools } from './endpoints.js';
import { marketplaceTools } from './marketplace.js';
import { projectTools } from './projects.js';
import { sqlTools } from './sql.js';
import { walletTools } from './wallet.js';

/** The specification's 26 tools, in its order by group. */
export const allTools: ToolDefinition[] = [...projectTools, ...branchTools, ...sqlTools, ...endpointTools, ...marketplaceTools, ...walletTools];
