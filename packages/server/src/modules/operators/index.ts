// The operators module: the operator console's operators, sessions, merchants view and freeze, money, audit log.
export * from './operators.service.ts';
export * from './operators.roles.ts';
export { default as operatorRoutes } from './operators.routes.ts';
