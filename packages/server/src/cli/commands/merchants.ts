import { type Command, InvalidArgumentError } from 'commander';
import type { Language } from '@caisse/intl';
import { ConfigError, loadConfig } from '../../config.ts';
import { COUNTRY_CODES, type Country, DEFAULT_COUNTRY } from '../../platform/countries.ts';
import { admin, examples, parseCountry, parseLanguage, print } from '../support.ts';

/** merchants: create, list, and their fees, language, country, settlement delay and reserve. */
export function registerMerchantsCommands(program: Command): void {
  const merchants = examples(
    program.command('merchants').description('manage merchants'),
    'npx caisse merchants create --name "Boutique Douala"',
    'npx caisse merchants list',
  );
  examples(
    merchants
      .command('create')
      .description('create a merchant with test keys and a dashboard login (shown once)')
      .requiredOption('--name <name>', 'merchant name', (v: string) => {
        if (v.trim() === '') throw new InvalidArgumentError('a merchant has a name');
        return v;
      })
      .option('--email <email>', 'dashboard login e-mail (default: derived from the name, @caisse.local)', (v: string) => {
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) throw new InvalidArgumentError('an e-mail address, e.g. owner@boutique.cm');
        return v;
      })
      .option('--language <language>', "default language of its customers' messages: fr or en", parseLanguage, 'fr')
      .option('--country <country>', `where it sells, selecting providers and currency: ${COUNTRY_CODES.join(', ')}`, parseCountry, DEFAULT_COUNTRY)
      .option('--json', 'print JSON'),
    'npx caisse merchants create --name "Boutique Douala" --email owner@boutique.cm --language fr',
    'npx caisse merchants create --name "Boutique Dakar" --country SN',
  ).action(async (opts: { name: string; email?: string; language: Language; country: Country; json?: boolean }) => {
    const created = await admin('merchants.create', {
      name: opts.name,
      language: opts.language,
      country: opts.country,
      ...(opts.email !== undefined ? { email: opts.email } : {}),
    });
    print(created, opts.json === true);
    if (opts.json !== true) process.stdout.write(`\nexport CAISSE_API_KEY=${created.test.apiKey} CAISSE_SECRET_KEY=${created.test.secretKey}\n`);
  });

  examples(
    merchants.command('list').description('list the merchants (id, name, dashboard e-mail)').option('--json', 'print JSON'),
    'npx caisse merchants list --json',
  ).action(async (opts: { json?: boolean }) => {
    const list = await admin('merchants.list', {});
    if (opts.json === true) print(list, true);
    else if (list.length === 0) process.stdout.write('no merchants yet (npx caisse merchants create --name …)\n');
    else for (const m of list) process.stdout.write(`${m.id}  ${m.name}${m.email ? `  <${m.email}>` : ''}\n`);
  });

  examples(
    merchants
      .command('fees <merchantId>')
      .description("set a merchant's fee schedule: a percentage of each payment plus a fixed part per currency")
      .requiredOption('--percent <percent>', 'e.g. 1.5 (at most 2 decimals, 0 to 100)')
      .option('--fixed <amounts>', 'fixed part per currency in major units: "0" (every currency) or "XAF:0,EUR:0.25"', '0')
      .option('--json', 'print JSON'),
    'npx caisse merchants fees mch_01jd… --percent 1.5 --fixed XAF:50,EUR:0.25',
  ).action(async (merchantId: string, opts: { percent: string; fixed: string; json?: boolean }) => {
    // The configuration's own parser reads the same forms as CAISSE_FEE_PERCENT and CAISSE_FEE_FIXED.
    const fixed = opts.fixed.trim() === '0' ? '' : opts.fixed;
    let fees: { bps: number; fixedMinor: Record<string, bigint> };
    try {
      fees = loadConfig({ ...process.env, CAISSE_FEE_PERCENT: opts.percent, CAISSE_FEE_FIXED: fixed }).fees;
    } catch (err) {
      if (err instanceof ConfigError)
        throw new InvalidArgumentError(err.message.replace('CAISSE_FEE_PERCENT', '--percent').replace('CAISSE_FEE_FIXED', '--fixed'));
      throw err;
    }
    const fixedMinor = Object.fromEntries(Object.entries(fees.fixedMinor).map(([c, v]) => [c, v.toString()]));
    print(await admin('merchants.fees', { merchantId, bps: fees.bps, fixedMinor }), opts.json === true);
  });

  examples(
    merchants
      .command('language <merchantId> <language>')
      .description("set a merchant's default language (fr or en): its customers' SMS and e-mail use it when they chose none and their request named none")
      .option('--json', 'print JSON'),
    'npx caisse merchants language mch_01jd… en',
  ).action(async (merchantId: string, language: string, opts: { json?: boolean }) => {
    print(await admin('merchants.language', { merchantId, language: parseLanguage(language) }), opts.json === true);
  });

  examples(
    merchants
      .command('country <merchantId> <country>')
      .description(`set a merchant's country (${COUNTRY_CODES.join(', ')}): its checkout offers that country's mobile-money providers and currency`)
      .option('--json', 'print JSON'),
    'npx caisse merchants country mch_01jd… SN',
  ).action(async (merchantId: string, country: string, opts: { json?: boolean }) => {
    print(await admin('merchants.country', { merchantId, country: parseCountry(country) }), opts.json === true);
  });

  examples(
    merchants
      .command('settlement <merchantId>')
      .description("set how many days a payment's net stays pending before it is available for payouts")
      .requiredOption('--delay-days <days>', '0 (available within seconds) to 365', (v: string) => {
        if (!/^(0|[1-9][0-9]{0,2})$/.test(v) || Number(v) > 365) throw new InvalidArgumentError('--delay-days is a whole number of days from 0 to 365');
        return Number(v);
      })
      .option('--json', 'print JSON'),
    'npx caisse merchants settlement mch_01jd… --delay-days 0',
  ).action(async (merchantId: string, opts: { delayDays: number; json?: boolean }) => {
    print(await admin('merchants.settlement', { merchantId, delayDays: opts.delayDays }), opts.json === true);
  });

  examples(
    merchants
      .command('reserve <merchantId>')
      .description(
        "set a merchant's rolling reserve: a percentage of each payment's net held for some days, then released to its available balance (refunds after a payout draw on it)",
      )
      .option('--percent <percent>', 'share held, 0.01 to 100 (at most 2 decimals)', (v: string) => {
        if (!/^(100(\.0{1,2})?|[0-9]{1,2}(\.[0-9]{1,2})?)$/.test(v) || Number(v) <= 0)
          throw new InvalidArgumentError('--percent is 0.01 to 100, at most 2 decimals');
        return Math.round(Number(v) * 100);
      })
      .option('--days <days>', 'how long each share is held, 1 to 365', (v: string) => {
        if (!/^[1-9][0-9]{0,2}$/.test(v) || Number(v) > 365) throw new InvalidArgumentError('--days is a whole number of days from 1 to 365');
        return Number(v);
      })
      .option('--off', 'no reserve from now on (what is held is still released on its date)')
      .option('--json', 'print JSON'),
    'npx caisse merchants reserve mch_01jd… --percent 10 --days 90',
    'npx caisse merchants reserve mch_01jd… --off',
  ).action(async (merchantId: string, opts: { percent?: number; days?: number; off?: boolean; json?: boolean }) => {
    if (opts.off === true) {
      if (opts.percent !== undefined || opts.days !== undefined) throw new InvalidArgumentError('--off takes neither --percent nor --days');
      print(await admin('merchants.reserve', { merchantId, reserve: null }), opts.json === true);
      return;
    }
    if (opts.percent === undefined || opts.days === undefined) throw new InvalidArgumentError('give --percent and --days (or --off)');
    print(await admin('merchants.reserve', { merchantId, reserve: { bps: opts.percent, days: opts.days } }), opts.json === true);
  });
}
