import { fileURLToPath } from 'node:url';

/** Built entry points the bench runs as separate processes (paths inside dist/). */
export const benchScripts = {
  platform: fileURLToPath(new URL('../../gateway/main.js', import.meta.url)),
  upstream: fileURLToPath(new URL('./processes/upstream.js', import.meta.url)),
  bareProxy: fileURLToPath(new URL('./processes/bare-proxy.js', import.meta.url)),
  mcpServer: fileURLToPath(new URL('../../mcp/cli.js', import.meta.url)),
};
