/**
 * docs/api.md, the API reference, rendered from the server's OpenAPI document by
 * generate-types.ts beside the types (`npm run generate:types`; `check:generated-types` fails
 * while it is stale): the document's own introduction, then every operation with who may call
 * it, its parameters, its body's fields and its answers. The dashboard's own API and the hosted
 * checkout page are left out: no integration calls them.
 */

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  security?: Record<string, unknown>[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const LEFT_OUT = /^\/(dashboard|checkout)(\/|$)/;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A schema's type in a few words: `string`, `"a" \| "b"`, `array of string`. */
function typeOf(schema: Schema | undefined): string {
  if (schema === undefined) return '';
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return [...new Set(branches.map(typeOf))].join(' \\| ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items) || 'values'}`;
  return Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'any');
}

/** Table cells hold one line: no pipes or line breaks of their own. */
const cell = (text: string | undefined) =>
  (text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

function who(op: Operation): string {
  const schemes = new Set((op.security ?? []).flatMap((s) => Object.keys(s)));
  if (schemes.has('secretKey')) return 'API key (`x-api-key`) and secret key (`Authorization: Bearer sk_…`)';
  if (schemes.has('accessToken')) return "API key (`x-api-key`) and the customer's access token (`Authorization: Bearer <jwt>` from `POST /auth/web`)";
  if (schemes.has('apiKey')) return 'API key (`x-api-key`)';
  return 'none';
}

function anchor(method: string, path: string): string {
  return `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function operation(method: string, path: string, op: Operation): string[] {
  const lines = [`<a id="${anchor(method, path)}"></a>`, '', `### ${method.toUpperCase()} ${path}`, ''];
  if (op.summary) lines.push(`**${op.summary}.** Credentials: ${who(op)}.`, '');
  else lines.push(`Credentials: ${who(op)}.`, '');
  if (op.description) lines.push(op.description.trim(), '');
  const params = op.parameters ?? [];
  if (params.length > 0) {
    lines.push('| Parameter | In | Type | Required | Description |', '|---|---|---|---|---|');
    for (const p of params) lines.push(`| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)} |`);
    lines.push('');
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  const fields = Object.entries(body?.properties ?? {});
  if (fields.length > 0) {
    lines.push('| Body field | Type | Required | Description |', '|---|---|---|---|');
    for (const [name, schema] of fields) {
      lines.push(`| \`${name}\` | ${cell(typeOf(schema))} | ${body?.required?.includes(name) ? 'yes' : 'no'} | ${cell(schema.description)} |`);
    }
    lines.push('');
  }
  const answers = Object.keys(op.responses ?? {});
  if (answers.length > 0) lines.push(`Answers: ${answers.join(', ')}; errors are \`application/problem+json\` (see "Errors" above).`, '');
  return lines;
}

export function renderReference(doc: OpenApiDocument): string {
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (LEFT_OUT.test(path)) continue;
    for (const method of METHODS) {
      const op = ops[method];
      if (op === undefined) continue;
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  const lines = [
    `# ${doc.info.title} reference (version ${doc.info.version})`,
    '',
    "<!-- Generated from the server's OpenAPI document by packages/api-types/scripts/api-reference.ts: do not edit. Change the route schemas and descriptions, then run `npm run generate:types`. -->",
    '',
    'The same document is served by every Caisse server at `/openapi.json` and rendered at `/docs`.',
    'New here? [docs/quickstart.md](quickstart.md) goes from an empty database to a paid test payment',
    'and a verified webhook.',
    '',
    '## Contents',
    '',
  ];
  for (const [tag, ops] of byTag) {
    lines.push(`- **${tag}**: ${ops.map(({ method, path }) => `[${method.toUpperCase()} ${path}](#${anchor(method, path)})`).join(', ')}`);
  }
  lines.push('', (doc.info.description ?? '').trim(), '');
  for (const [tag, ops] of byTag) {
    lines.push(`## ${tag}`, '');
    for (const { method, path, op } of ops) lines.push(...operation(method, path, op));
  }
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
