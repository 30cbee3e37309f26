import type { Command } from 'commander';
import { admin, examples, print, wholeNumber } from '../support.ts';

/** messages: the operator outbox. */
export function registerMessagesCommands(program: Command): void {
  const messages = examples(
    program
      .command('messages')
      .description('the operator outbox: e-mails that prove an address (sign-up links, password resets, invitations) kept without SMTP'),
    'npx caisse messages list',
  );
  examples(
    messages
      .command('list')
      .description('list the newest messages of the operator outbox (development, or no SMTP server configured)')
      .option('--to <address>', 'only the messages to this e-mail address or phone number')
      .option('--limit <n>', 'how many (at most 100)', wholeNumber, 20)
      .option('--json', 'print JSON'),
    'npx caisse messages list --to owner@boutique.cm',
  ).action(async (opts: { to?: string; limit: number; json?: boolean }) => {
    const list = await admin('messages.list', { limit: Math.min(Math.max(opts.limit, 1), 100), ...(opts.to !== undefined ? { to: opts.to } : {}) });
    if (opts.json === true) print(list, true);
    else if (list.data.length === 0) process.stdout.write('the operator outbox is empty (with SMTP configured, these e-mails are sent)\n');
    else for (const m of list.data) process.stdout.write(`${m.createdAt}  ${m.id}  to ${m.to}  (${m.status})\n${m.body ?? ''}\n\n`);
  });
}
