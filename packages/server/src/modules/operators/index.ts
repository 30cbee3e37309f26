// The operators module: the operator console's operators, sessions, merchants view and freeze, money, audit log.
export { createOperatorsService, type OperatorsService } from './operators.service.ts';
export { OPERATOR_ROLES, type OperatorRole } from './operators.roles.ts';
export { default as operatorRoutes } from './operators.routes.ts';
