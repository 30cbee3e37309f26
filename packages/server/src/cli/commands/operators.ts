import { type Command, InvalidArgumentError } from 'commander';
import type { OperatorRole } from '../../modules/operators/index.ts';
import { admin, examples, print } from '../support.ts';

/**
 * The operators module's roles (its OPERATOR_ROLES), named here for the option's help and check:
 * importing that module would load the whole server into every command, `trigger` and `listen`
 * included. A test keeps the two lists equal.
 */
export const OPERATOR_ROLES: readonly OperatorRole[] = ['admin', 'compliance', 'finance', 'support'];

/** An operator role option. */
function parseOperatorRole(value: string): OperatorRole {
  if (!(OPERATOR_ROLES as readonly string[]).includes(value)) throw new InvalidArgumentError(`a role is one of ${OPERATOR_ROLES.join(', ')}`);
  return value as OperatorRole;
}

/** operators: the people who run the platform. */
export function registerOperatorsCommands(program: Command): void {
  const operators = examples(
    program.command('operators').description('the people who run the platform (operator console at /operator)'),
    'npx caisse operators create --email ops@example.com',
  );
  examples(
    operators
      .command('create')
      .description('create an operator (role admin unless --role says otherwise) with a one-time password, shown once')
      .requiredOption('--email <email>', "the operator's sign-in e-mail")
      .option('--role <role>', `one of ${OPERATOR_ROLES.join(', ')}`, parseOperatorRole, 'admin')
      .option('--json', 'print JSON'),
    'npx caisse operators create --email ops@example.com',
  ).action(async (opts: { email: string; role: OperatorRole; json?: boolean }) => {
    const created = await admin('operators.create', { email: opts.email, role: opts.role });
    print(created, opts.json === true);
    if (opts.json !== true) {
      process.stdout.write(`\nSign in at /operator with ${created.email} and this password; an authenticator app (TOTP) is enrolled at the first sign-in.\n`);
    }
  });
}
