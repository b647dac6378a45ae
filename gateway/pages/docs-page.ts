import type { JsonSchema } from '../../rest-adapter/openapi/json-schema.js';
import { html, type Html } from './html.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const refName = (ref: string) => ref.split('/').pop()!;

/** A schema in a few words: `string`, `array of Publisher`, `integer | null`. */
function typeLabel(schema: JsonSchema | undefined): Html {
  if (!schema || Object.keys(schema).length === 0) return html`any JSON`;
  if (schema.$ref) return html`<a href="#schema-${refName(schema.$ref)}">${refName(schema.$ref)}</a>`;
  if (schema.anyOf) return html`${schema.anyOf.map((part: JsonSchema, index: number) => html`${index ? ' | ' : ''}${typeLabel(part)}`)}`;
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  const main = types[0] === 'array' ? html`array of ${typeLabel(schema.items)}` : html`${types[0]}${schema.format ? ` (${schema.format})` : ''}`;
  const enumText = schema.enum ? html` <span class="muted">one of ${schema.enum.filter((v: unknown) => v !== null).join(', ')}</span>` : '';
  return html`${main}${types.slice(1).map((type) => ` | ${type}`)}${enumText}`;
}

/** The properties of an object schema (or of the objects in an array), one row each. */
function propertiesTable(schema: JsonSchema | undefined, components: Record<string, JsonSchema>): Html {
  let target = schema;
  if (target?.$ref) target = components[refName(target.$ref)];
  if (target?.items && (target.type === 'array' || target.type?.[0] === 'array')) target = target.items.$ref ? components[refName(target.items.$ref)] : target.items;
  if (!target?.properties || Object.keys(target.properties).length === 0) return html`<p class="muted">${typeLabel(schema)}</p>`;
  const required = new Set<string>(target.required ?? []);
  return html`<table><tr><th>field</th><th>type</th><th></th></tr>${Object.entries(target.properties).map(
    ([name, property]) =>
      html`<tr><td><code>${name}</code>${required.has(name) ? html` <span class="muted">required</span>` : ''}</td><td>${typeLabel(property as JsonSchema)}</td><td class="muted">${(property as JsonSchema).description ?? ''}</td></tr>`,
  )}</table>`;
}

function operationBlock(path: string, method: string, operation: JsonSchema, components: Record<string, JsonSchema>): Html {
  const [status, success] = Object.entries(operation.responses ?? {}).find(([code]) => code !== 'default') ?? ['200', {}];
  const data = (success as JsonSchema).content?.['application/json']?.schema?.properties?.data;
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const parameters = (operation.parameters ?? []) as JsonSchema[];
  return html`<div class="op" id="${operation.operationId}">
<div><span class="method m-${method}">${method.toUpperCase()}</span> <code>${path}</code></div>
<p>${operation.summary ?? ''} <span class="muted">${operation.description ?? ''}</span></p>
${parameters.length ? html`<h3>Parameters</h3><table><tr><th>name</th><th>in</th><th>type</th></tr>${parameters.map((p) => html`<tr><td><code>${p.name}</code></td><td>${p.in}</td><td>${typeLabel(p.schema)}</td></tr>`)}</table>` : ''}
${body ? html`<h3>Body${operation.requestBody.required ? '' : ' (optional)'}</h3>${propertiesTable(body, components)}` : ''}
<h3>${status} answer</h3>${data ? html`<p class="muted"><code>{"data": …}</code> where data is ${typeLabel(data)}</p>${propertiesTable(data, components)}` : html`<p class="muted">${(success as JsonSchema).description ?? ''}</p>`}
</div>`;
}

/** The REST reference, rendered on the server from the OpenAPI document (no script needed). */
export function renderDocs(document: JsonSchema): Html {
  const components: Record<string, JsonSchema> = document.components.schemas;
  const byTag = new Map<string, [string, string, JsonSchema][]>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, JsonSchema>>)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), [path, method, operation]]);
    }
  }
  const tags = [...byTag.keys()].sort();
  return html`<h1>REST reference</h1>
<p class="lead">${document.info.description} Version ${document.info.version}. Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${document.openapi}).</p>
<p>Authenticate with <code>Authorization: Bearer &lt;API key or access token&gt;</code>. Errors answer <code>{"error":{"code","message"}}</code> with a stable snake_case code.</p>
<nav class="toc">${tags.map((tag) => html`<a href="#tag-${tag}">${tag}</a>`)}</nav>
${tags.map((tag) => html`<h2 id="tag-${tag}">${tag}</h2>${byTag.get(tag)!.map(([path, method, operation]) => operationBlock(path, method, operation, components))}`)}
<h2 id="schemas">Request bodies</h2>
${Object.keys(components).sort().map((name) => html`<h3 id="schema-${name}">${name}</h3>${components[name]!.description ? html`<p class="muted">${components[name]!.description}</p>` : ''}${propertiesTable(components[name], components)}`)}`;
}
