import { type Command, InvalidArgumentError, Option } from 'commander';
import { admin, examples, print, repeatable, wholeNumber } from '../support.ts';

const MERCHANT_HELP = 'merchant id (npx caisse merchants list); default: the only merchant there is';

/** `--merchant`, or the only merchant there is (a development database has one): keys commands then need no id. */
async function merchantOf(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const list = await admin('merchants.list', {});
  if (list.length === 1 && list[0] !== undefined) return list[0].id;
  throw new InvalidArgumentError(
    list.length === 0 ? 'no merchant yet: npx caisse merchants create --name …' : `${list.length} merchants: give --merchant (npx caisse merchants list)`,
  );
}

/** keys: a merchant's API keys and secret keys. */
export function registerKeysCommands(program: Command): void {
  const keys = examples(
    program.command('keys').description('manage API keys and secret keys'),
    'npx caisse keys create --merchant mch_… --kind both',
    'npx caisse keys list --merchant mch_…',
  );
  examples(
    keys
      .command('create')
      .description('create a key (or, with --kind both, an API key and a secret key); shown once')
      .option('--merchant <id>', MERCHANT_HELP)
      .addOption(
        new Option('--kind <kind>', 'publishable (pk_…), secret (sk_…), restricted (rk_…: --permissions only) or both')
          .choices(['publishable', 'secret', 'restricted', 'both'])
          .default('publishable'),
      )
      .addOption(new Option('--mode <mode>', 'test or live').choices(['test', 'live']).default('test'))
      .option('--name <name>', 'a name to recognise it by', 'API key')
      .option('--origin <origin>', 'a browser origin allowed to use this API key (repeatable; none: any origin)', repeatable)
      .option(
        '--permissions <list>',
        "a restricted key's permissions, resource:read|write separated by commas (payments, refunds, payouts, customers, balance, webhooks, events, payment_links; others: none)",
      )
      .option('--json', 'print JSON'),
    'npx caisse keys create --merchant mch_01jd… --kind both            # lost the development keys? a new pair',
    'npx caisse keys create --merchant mch_01jd… --kind secret --mode live --name "Server"',
    'npx caisse keys create --merchant mch_01jd… --kind restricted --permissions payments:read,balance:read --name "Reporting"',
    'npx caisse keys create --merchant mch_01jd… --origin https://shop.example',
  ).action(
    async (opts: {
      merchant?: string;
      kind: 'publishable' | 'secret' | 'restricted' | 'both';
      mode: 'test' | 'live';
      name: string;
      origin?: string[];
      permissions?: string;
      json?: boolean;
    }) => {
      if ((opts.kind === 'restricted') !== (opts.permissions !== undefined)) {
        throw new InvalidArgumentError(
          opts.kind === 'restricted'
            ? '--kind restricted needs --permissions, e.g. --permissions payments:read,balance:read'
            : '--permissions is for --kind restricted only',
        );
      }
      const created = await admin('keys.create', {
        merchantId: await merchantOf(opts.merchant),
        kind: opts.kind,
        mode: opts.mode,
        name: opts.name,
        allowedOrigins: opts.origin ?? [],
        ...(opts.permissions === undefined ? {} : { permissions: opts.permissions }),
      });
      print(created, opts.json === true);
      if (opts.json !== true && 'apiKey' in created) {
        const prefix = opts.mode === 'test' ? 'CAISSE' : 'CAISSE_LIVE';
        process.stdout.write(`\nexport ${prefix}_API_KEY=${created.apiKey.secret} ${prefix}_SECRET_KEY=${created.secretKey.secret}\n`);
      }
    },
  );
  examples(
    keys
      .command('roll <keyId>')
      .description('issue a replacement key; the old one works for the grace period')
      .option('--merchant <id>', MERCHANT_HELP)
      .option('--grace <seconds>', 'seconds the old key keeps working (0 to 604800)', wholeNumber, 86_400)
      .option('--json', 'print JSON'),
    'npx caisse keys roll key_01jd… --merchant mch_01jd… --grace 86400',
  ).action(async (keyId: string, opts: { merchant?: string; grace: number; json?: boolean }) => {
    print(await admin('keys.roll', { merchantId: await merchantOf(opts.merchant), keyId, graceSeconds: opts.grace }), opts.json === true);
  });
  examples(
    keys
      .command('origins <keyId>')
      .description('replace the browser origins allowed to use an API key (no --origin: any origin)')
      .option('--merchant <id>', MERCHANT_HELP)
      .option('--origin <origin>', 'an allowed origin, e.g. https://shop.example (repeatable)', repeatable)
      .option('--json', 'print JSON'),
    'npx caisse keys origins key_01jd… --merchant mch_01jd… --origin https://shop.example --origin http://localhost:3000',
  ).action(async (keyId: string, opts: { merchant?: string; origin?: string[]; json?: boolean }) => {
    print(await admin('keys.origins', { merchantId: await merchantOf(opts.merchant), keyId, origins: opts.origin ?? [] }), opts.json === true);
  });
  examples(
    keys.command('revoke <keyId>').description('stop a key from working, now').option('--merchant <id>', MERCHANT_HELP).option('--json', 'print JSON'),
    'npx caisse keys revoke key_01jd… --merchant mch_01jd…',
  ).action(async (keyId: string, opts: { merchant?: string; json?: boolean }) => {
    print(await admin('keys.revoke', { merchantId: await merchantOf(opts.merchant), keyId }), opts.json === true);
  });
  examples(
    keys
      .command('list')
      .description("list a merchant's keys (their secrets are never shown again)")
      .option('--merchant <id>', MERCHANT_HELP)
      .option('--json', 'print JSON'),
    'npx caisse keys list --merchant mch_01jd…',
  ).action(async (opts: { merchant?: string; json?: boolean }) => {
    const merchantId = await merchantOf(opts.merchant);
    const list = await admin('keys.list', { merchantId });
    if (opts.json === true) print(list, true);
    else if (list.length === 0) process.stdout.write(`merchant ${merchantId} has no keys (npx caisse keys create --merchant ${merchantId} --kind both)\n`);
    else {
      for (const k of list) {
        const state = k.revokedAt ? 'revoked' : k.expiresAt ? `expires ${k.expiresAt}` : 'active';
        const granted = k.permissions
          ? `  ${Object.entries(k.permissions)
              .filter(([, level]) => level !== 'none')
              .map(([r, level]) => `${r}:${level}`)
              .join(',')}`
          : '';
        process.stdout.write(`${k.id}  ${k.display}  ${k.kind} ${k.mode}  ${state}  "${k.name}"${granted}\n`);
      }
    }
  });
}
