import type { FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';

/**
 * Response serializers by schema text. Fastify compiles one per route and status, from a copy of
 * the schema: the problem answers every route declares are one schema compiled once, and an app
 * built again in the same process (the tests build one per file) compiles nothing twice. No
 * shared schemas are registered (`addSchema`), so the schema alone decides the function.
 */
const compiled = new Map<string, (data: unknown) => string>();

export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const key = JSON.stringify(schema);
  let serialize = compiled.get(key);
  if (serialize === undefined) {
    serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as (data: unknown) => string;
    compiled.set(key, serialize);
  }
  return serialize;
};
