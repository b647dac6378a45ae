import type { Config } from '../../shared/config.js';
import { html, type Html } from './html.js';
import type { PlatformVersion } from './version.js';

const card = (href: string, title: string, text: string) => html`<a class="card" href="${href}"><h3>${title}</h3><p>${text}</p></a>`;

/** What a person opening the platform's address first sees: where everything is, and a first paid call. */
export function renderLanding(config: Config, version: PlatformVersion): Html {
  const base = config.publicUrl;
  const development = config.nodeEnv !== 'production';
  return html`<h1>Agent commerce platform</h1>
<p class="lead">Agents and people register, fund a prepaid wallet and pay per call for APIs and data sold by publishers. GraphQL and REST run the same code.</p>
<div class="cards">
${card('/graphql', 'GraphQL IDE', 'Explore the schema (Docs) and run queries and mutations in the browser.')}
${card('/docs', 'REST reference', 'Every REST path: parameters, bodies, answers and errors.')}
${card('/openapi.json', 'OpenAPI 3.1', 'The same reference for code generators and HTTP clients.')}
${card('/llms.txt', 'llms.txt', 'A short plain-text guide for agents: register, fund, discover, estimate, call.')}
${card('/healthz', 'Health', 'Answers while the process lives.')}
${card('/readyz', 'Readiness', 'Answers 200 only when the database does.')}
</div>
<h2>A first paid call</h2>
<pre>curl -s -XPOST ${base}/auth/agent -H 'content-type: application/json' -d '{"name":"scout"}'
export API_KEY=&lt;data.agent.api_key&gt;
${development ? html`curl -s -XPOST ${base}/wallet/dev-credits -H "authorization: Bearer $API_KEY"      # development credits
` : html`curl -s -XPOST ${base}/wallet/deposit -H "authorization: Bearer $API_KEY" -H 'content-type: application/json' -d '{"amount_cents":500}'
`}curl -s '${base}/publishers?limit=5'
curl -s ${base}/publishers/&lt;slug&gt;/&lt;path&gt; -H "authorization: Bearer $API_KEY"        # the paid call
curl -s ${base}/wallet/transactions -H "authorization: Bearer $API_KEY"</pre>
<dl class="meta"><dt>version</dt><dd>${version.version}${version.commit ? html` (commit <code>${version.commit}</code>)` : ''}</dd><dt>mode</dt><dd>${config.nodeEnv}</dd></dl>`;
}
