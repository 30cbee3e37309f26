import type { FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';

/**
 * Response serializers by schema text, each built at its first use. Fastify compiles one per route
 * and status, from a copy of the schema: the problem answers every route declares are one schema
 * built once, and an app built again in the same process (the tests build one per file) builds
 * nothing twice. Built at the first answer rather than at start, as the validators are
 * (validation.ts). No shared schemas are registered (`addSchema`), so the schema alone decides the
 * function.
 */
type Serialize = (data: unknown) => string;
interface Entry {
  schema: object;
  serialize?: Serialize;
}
const schemas = new Map<string, Entry>();

const builtOf = (entry: Entry): Serialize => (entry.serialize ??= fastJsonStringify(entry.schema as Parameters<typeof fastJsonStringify>[0]) as Serialize);

/** Builds every serializer not yet used, throwing on the first schema fast-json-stringify refuses. */
export function buildAllSerializers(): number {
  for (const entry of schemas.values()) builtOf(entry);
  return schemas.size;
}

export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const key = JSON.stringify(schema);
  let entry = schemas.get(key);
  if (entry === undefined) {
    entry = { schema: schema as object };
    schemas.set(key, entry);
  }
  const known = entry;
  return (data: unknown) => builtOf(known)(data);
};
