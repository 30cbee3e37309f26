import type { OperatorPermission } from './operators.roles.ts';
import type { OperatorSession } from './operators.sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Operator API routes: `public` (sign-in) or what the signed-in operator's role must have. */
    operator?: 'public' | OperatorPermission;
  }
  interface FastifyRequest {
    operatorSession: OperatorSession;
    operatorToken: string;
  }
}

// What every area of the operator API (operators.*.routes.ts) declares its routes with.
export const tags = ['operator console (internal)'];
/** JSON answers with the API's CSP and no-store; no API key. */
const base = { auth: 'none' as const, csp: 'api' as const };
export const open = { ...base, operator: 'public' as const };
export const need = (permission: OperatorPermission) => ({ ...base, operator: permission });
