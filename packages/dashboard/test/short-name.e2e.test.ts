import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, DESKTOP, launchChromium, type Page, type RunningServer, startServer, watchConsole } from './support.ts';

/**
 * The payer-facing short name on Settings → Business profile, in Debian's Chromium against a real
 * server: a name providers would refuse (an accent, punctuation, too short or too long) is refused with the
 * rule in the page's language, never a bare error code; a valid one is saved.
 */
let server: RunningServer;
let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const TEXTS = {
  en: {
    email: 'E-mail address',
    password: 'Password',
    signIn: 'Sign in',
    home: 'Home',
    profile: 'Business profile',
    field: 'Short name',
    save: 'Save the name',
    refused: 'Payers cannot be shown this name: use 4 to 22 letters without accents, digits and spaces, nothing else.',
    saved: 'Payers now see “Akwa Shop 2”.',
  },
  fr: {
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
    home: 'Accueil',
    profile: 'Profil d’entreprise',
    field: 'Nom court',
    save: 'Enregistrer le nom',
    refused: 'Ce nom ne peut pas être affiché aux payeurs : 4 à 22 lettres sans accents, chiffres et espaces, rien d’autre.',
    saved: 'Les payeurs voient désormais « Akwa Shop 2 ».',
  },
} as const;

async function profilePage(locale: 'en' | 'fr'): Promise<Page> {
  const T = TEXTS[locale];
  const context = await browser.newContext({ ...DESKTOP, locale });
  const page = await context.newPage();
  watchConsole(page, errors);
  await page.goto(`${server.url}/dashboard`);
  await page.getByLabel(T.email).fill(server.merchant.dashboard.email);
  await page.getByLabel(T.password).fill(server.merchant.dashboard.password);
  await page.getByRole('button', { name: T.signIn }).click();
  await page.getByRole('heading', { level: 1, name: T.home }).waitFor();
  await page.getByRole('link', { name: T.profile }).click();
  await page.getByRole('heading', { level: 1, name: T.profile }).waitFor();
  return page;
}

describe('the short name shown to payers', () => {
  it.each(['en', 'fr'] as const)('in %s: a name providers refuse is explained, a valid one is saved', async (locale) => {
    const T = TEXTS[locale];
    const page = await profilePage(locale);
    // 23 letters and spaces: one too many, refused rather than cut short behind the payer's back.
    for (const refused of ['Café Akwa', 'Akwa & Co', 'Akw', 'Boutique Akwa Bonapriso']) {
      await page.getByLabel(T.field).fill(refused);
      await page.getByRole('button', { name: T.save }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toBe(T.refused);
    }
    await page.getByLabel(T.field).fill('Akwa Shop 2');
    await page.getByRole('button', { name: T.save }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Akwa Shop 2' }).textContent()).toBe(T.saved);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
