import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaisseProvider, Checkout, type CheckoutProps } from '../src/index.ts';
import { fakeGateway, METHODS, REJECTED_NUMBER } from './fake-gateway.ts';

function renderCheckout(gateway = fakeGateway(), props: CheckoutProps = {}) {
  const user = userEvent.setup();
  const view = render(
    <CaisseProvider apiKey="pk_test_abcdefghijklmnopqrstuvwx" clientSecret="ps_good" client={gateway.client}>
      <Checkout locale="en" {...props} />
    </CaisseProvider>,
  );
  return { user, gateway, ...view };
}

/** Without a `locale`: the browser's languages decide. */
function renderWithoutLocale(gateway = fakeGateway()) {
  const user = userEvent.setup();
  const view = render(
    <CaisseProvider apiKey="pk_test_abcdefghijklmnopqrstuvwx" clientSecret="ps_good" client={gateway.client}>
      <Checkout />
    </CaisseProvider>,
  );
  return { user, ...view };
}

afterEach(cleanup);

describe('<Checkout/>', () => {
  it('is driven by keyboard alone from sign-in to payment, with focus following each step', async () => {
    const onSuccess = vi.fn();
    const onStatusChange = vi.fn();
    const { user } = renderCheckout(fakeGateway(), { onSuccess, onStatusChange });
    expect(screen.getByRole('status').textContent).toBe('Loading the payment…');
    const region = await screen.findByRole('region', { name: /Pay FCFA\s5,000/ });
    expect(within(region).getByText('Order 42: one basket of mangoes')).toBeTruthy();

    // Labels name every field; Tab moves through them in order; Enter submits.
    await user.click(screen.getByLabelText('Phone number'));
    await user.keyboard('+237650000001');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    await user.keyboard('correct horse{Enter}');

    const code = await screen.findByLabelText('Verification code');
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(screen.getByRole('status').textContent).toBe('A code was sent to +237 6•• •• ••01.');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    await user.keyboard('123456{Enter}');

    const pay = await screen.findByRole('button', { name: /Pay FCFA\s5,000/ });
    await waitFor(() => expect(document.activeElement).toBe(pay));
    await user.keyboard('{Enter}');

    await screen.findByText(/your payment of FCFA\s5,000 is complete/);
    expect(screen.getByRole('status').textContent).toBe('Payment complete.');
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(onSuccess.mock.calls[0]?.[0]).toMatchObject({ id: 'pi_1', status: 'SUCCEEDED' });
    expect(onStatusChange.mock.calls.map((c) => c[0])).toEqual(['ready', 'logging-in', 'otp-sent', 'otp-verified', 'charging', 'succeeded']);
  });

  it('reads errors out (role=alert) and ties them to the fields', async () => {
    const { user } = renderCheckout();
    await user.type(await screen.findByLabelText('Phone number'), '+237650000001');
    await user.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    const alert = screen.getByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe('The phone number or password is not right.'));
    expect(alert.getAttribute('aria-live')).toBe('assertive');
    const phone = screen.getByLabelText('Phone number');
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    expect(phone.getAttribute('aria-describedby')).toContain(alert.id);

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    const code = await screen.findByLabelText('Verification code');
    expect(alert.textContent).toBe('');
    await user.type(code, '000000{Enter}');
    await waitFor(() => expect(alert.textContent).toBe('That code is not right. 4 tries left.'));
    expect(code.getAttribute('aria-describedby')).toContain(alert.id);
  });

  it('speaks French with locale="fr-CM": texts, plurals and amounts as Intl writes them there', async () => {
    const { user, container } = renderCheckout(fakeGateway(), { locale: 'fr-CM' });
    expect(screen.getByRole('status').textContent).toBe('Chargement du paiement…');
    await screen.findByRole('region', { name: /^Payer 5\s000\sFCFA$/ });
    expect(container.querySelector('section')?.getAttribute('lang')).toBe('fr-CM');
    await user.type(screen.getByLabelText('Numéro de téléphone'), '+237650000001');
    await user.type(screen.getByLabelText('Mot de passe'), 'wrong{Enter}');
    const alert = screen.getByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe('Le numéro de téléphone ou le mot de passe n’est pas le bon.'));
    await user.clear(screen.getByLabelText('Mot de passe'));
    await user.type(screen.getByLabelText('Mot de passe'), 'correct horse{Enter}');
    const code = await screen.findByLabelText('Code de vérification');
    expect(screen.getByRole('status').textContent).toBe('Un code a été envoyé à +237 6•• •• ••01.');
    await user.type(code, '000000{Enter}');
    await waitFor(() => expect(alert.textContent).toBe('Ce code n’est pas le bon. 4 essais restants.'));
  });

  it('words a locked sign-in and the daily code limit (issue 20) with the wait in hours or minutes, in both languages', async () => {
    const locked = fakeGateway();
    locked.state.tooMany.set('/auth/web', { code: 'login_locked', retryAfter: 900 });
    const { user } = renderCheckout(locked);
    await user.type(await screen.findByLabelText('Phone number'), '+237650000001');
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Too many failed sign-ins with this number. Try again later, or choose a new password with “Forgot password?”. Wait 15 minutes.',
      ),
    );
    cleanup();

    const limited = fakeGateway();
    limited.state.tooMany.set('/otp/init', { code: 'otp_daily_limit', retryAfter: 5 * 3600 + 60 });
    const fr = renderCheckout(limited, { locale: 'fr-CM' });
    await fr.user.type(await screen.findByLabelText('Numéro de téléphone'), '+237650000001');
    await fr.user.type(screen.getByLabelText('Mot de passe'), 'correct horse{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Trop de codes erronés aujourd’hui\u00a0: aucun code ne peut être envoyé ni vérifié avant demain. Si ce n’était pas vous, changez votre mot de passe. Patientez 6 heures.',
      ),
    );
  });

  it("falls back to the merchant's default when the browser asks for neither French nor English", async () => {
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'es']);
    try {
      const gateway = fakeGateway();
      gateway.state.intent = { ...gateway.state.intent, merchantLanguage: 'en' };
      renderWithoutLocale(gateway);
      await screen.findByRole('region', { name: /^Pay FCFA\s5,000$/ });
      cleanup();
      renderWithoutLocale(fakeGateway());
      await screen.findByRole('region', { name: /^Payer 5\s000\sFCFA$/ });
    } finally {
      languages.mockRestore();
    }
  });

  it("defaults to the browser's languages, and follows the customer's saved language once they sign in", async () => {
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'en-GB']);
    try {
      const { user } = renderWithoutLocale(fakeGateway({ language: 'fr' }));
      await screen.findByRole('region', { name: /^Pay FCFA\s5,000$/ });
      await user.type(screen.getByLabelText('Phone number'), '+237650000001');
      await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
      await screen.findByLabelText('Code de vérification');
      expect(screen.getByRole('region', { name: /^Payer 5\s000\sFCFA$/ })).toBeTruthy();
    } finally {
      languages.mockRestore();
    }
  });

  it('sends a new code on request', async () => {
    const { user, gateway } = renderCheckout();
    await user.type(await screen.findByLabelText('Phone number'), '+237650000001');
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    await screen.findByLabelText('Verification code');
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(gateway.state.codesSent).toBe(2));
  });

  it('a customer signing in again moments after a code was sent goes to the code step, told no new code was sent', async () => {
    const gateway = fakeGateway();
    gateway.state.tooMany.set('/otp/init', { code: 'otp_rate_limited', retryAfter: 11 });
    const { user } = renderCheckout(gateway, { locale: 'fr-CM' });
    await user.type(await screen.findByLabelText('Numéro de téléphone'), '+237650000001');
    await user.type(screen.getByLabelText('Mot de passe'), 'correct horse{Enter}');
    const code = await screen.findByLabelText('Code de vérification');
    expect(screen.getByRole('status').textContent).toBe(
      "Aucun nouveau code n'a été envoyé : un code vous a été envoyé il y a un instant. Saisissez le dernier code reçu ; un code dure 5 minutes.",
    );
    expect(screen.getByRole('alert').textContent).toMatch(/Patientez 11 secondes\.$/);
    await user.type(code, '123456{Enter}');
    await screen.findByRole('button', { name: /^Payer 5\s000\sFCFA$/ });
  });

  it("shows its own words for an error, never the API's English detail", async () => {
    const gateway = fakeGateway();
    // An answer whose code the checkout does not know: its detail ("Too many attempts") stays out of the page.
    gateway.state.tooMany.set('/auth/web', { code: 'brand_new_code', retryAfter: 3 });
    const { user } = renderCheckout(gateway, { locale: 'fr-CM' });
    await user.type(await screen.findByLabelText('Numéro de téléphone'), '+237650000001');
    await user.type(screen.getByLabelText('Mot de passe'), 'correct horse{Enter}');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^Un problème est survenu\. Réessayez, ou retournez à la boutique\./));
    expect(screen.getByRole('alert').textContent).not.toMatch(/Too many/);
  });

  it('ends on what was paid, to whom, its reference and a button back to the shop', async () => {
    const { user } = renderCheckout(fakeGateway(), { merchantName: 'Mango Shop', returnUrl: 'https://shop.example/orders/42' });
    await user.type(await screen.findByLabelText('Phone number'), '+237650000001');
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    await user.type(await screen.findByLabelText('Verification code'), '123456{Enter}');
    await user.click(await screen.findByRole('button', { name: /^Pay FCFA\s5,000$/ }));
    await screen.findByText(/^Thank you: you paid FCFA\s5,000 to Mango Shop\.$/);
    expect(screen.getByText('Reference pi_1')).toBeTruthy();
    const back = screen.getByRole('link', { name: 'Return to Mango Shop' });
    expect(back.getAttribute('href')).toBe('https://shop.example/orders/42');
    expect(back.className).toContain('caisse-return');
    cleanup();

    // Without a return URL there is no button to nowhere.
    const plain = renderCheckout(fakeGateway({ status: 'SUCCEEDED' }));
    await screen.findByText(/^Thank you: your payment of FCFA\s5,000 is complete\.$/);
    expect(plain.queryByRole('link')).toBeNull();
  });

  it('says on the sign-in step that the account works at every shop using Caisse', async () => {
    renderCheckout();
    await screen.findByLabelText('Phone number');
    expect(screen.getByText('Your Caisse account works at every shop that uses Caisse.')).toBeTruthy();
  });

  it('resets a forgotten password by keyboard alone, then signs in with it and pays', async () => {
    const onStatusChange = vi.fn();
    const { user, gateway } = renderCheckout(fakeGateway(), { onStatusChange });
    await user.click(await screen.findByLabelText('Phone number'));
    await user.keyboard('+237 650 00 00 01');
    // Phone number → Password → Continue → Forgot password?
    await user.tab();
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.keyboard('{Enter}');

    // The number typed at sign-in is there already, and has focus.
    const phone = await screen.findByLabelText('Phone number');
    await waitFor(() => expect(document.activeElement).toBe(phone));
    expect((phone as HTMLInputElement).value).toBe('+237650000001');
    expect(screen.getByRole('status').textContent).toBe('Reset your password.');
    expect(screen.queryByLabelText('Password')).toBeNull();
    await user.keyboard('{Enter}');

    const code = await screen.findByLabelText('Reset code');
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(screen.getByRole('status').textContent).toBe('If +237650000001 has a Caisse account, a code is on its way by SMS.');
    const newPassword = screen.getByLabelText('New password');
    expect(newPassword.getAttribute('autocomplete')).toBe('new-password');
    expect((newPassword as HTMLInputElement).value).toBe('');

    // A wrong code: the alert says so, with the tries left, tied to the field.
    await user.keyboard('000000');
    await user.tab();
    expect(document.activeElement).toBe(newPassword);
    await user.keyboard('a brand new horse{Enter}');
    const alert = screen.getByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe('That code is not right. 4 tries left.'));
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(code.getAttribute('aria-describedby')).toContain(alert.id);

    await user.clear(code);
    await user.type(code, '654321{Enter}');
    // Signed in with the new password: the payment code went out.
    const otp = await screen.findByLabelText('Verification code');
    await waitFor(() => expect(document.activeElement).toBe(otp));
    expect(screen.getByRole('status').textContent).toBe('Your new password is set. A code was sent to +237 6•• •• ••01.');
    expect((otp as HTMLInputElement).value).toBe('');
    expect(gateway.state.password).toBe('a brand new horse');
    await user.keyboard('123456{Enter}');
    await user.click(await screen.findByRole('button', { name: /Pay FCFA\s5,000/ }));
    await screen.findByText(/is complete/);
    // (Signing in after the reset passes within one render here, so logging-in is not seen.)
    expect(onStatusChange.mock.calls.map((c) => c[0])).toEqual(['ready', 'reset-phone', 'reset-code', 'otp-sent', 'otp-verified', 'charging', 'succeeded']);
  });

  it('goes back to sign-in from the reset, with the number kept and a weak password explained', async () => {
    const { user } = renderCheckout();
    await user.type(await screen.findByLabelText('Phone number'), '+237650000001');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.click(await screen.findByRole('button', { name: 'Send code' }));
    await user.type(await screen.findByLabelText('Reset code'), '654321');
    await user.type(screen.getByLabelText('New password'), 'password{Enter}');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^Choose a stronger password/));
    expect(screen.getByLabelText('New password').getAttribute('aria-describedby')).toContain(screen.getByRole('alert').id);
    // The password is what was refused, not the code.
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Reset code').getAttribute('aria-invalid')).toBe('false');

    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    const phone = await screen.findByLabelText('Phone number');
    expect((phone as HTMLInputElement).value).toBe('+237650000001');
    expect(screen.getByRole('alert').textContent).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(phone));
    // The old password still works: nothing was set.
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    await screen.findByLabelText('Verification code');
  });

  it('says when the payment has expired and offers nothing to pay', async () => {
    renderCheckout(fakeGateway({ status: 'EXPIRED' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('This payment has expired.'));
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers a retry after a declined payment', async () => {
    const { user, gateway } = renderCheckout(fakeGateway());
    await user.type(await screen.findByLabelText('Phone number'), '+237650000001');
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    await user.type(await screen.findByLabelText('Verification code'), '123456{Enter}');
    // Spent elsewhere meanwhile, and the wallet cannot be read to offer a top-up.
    gateway.state.balance = 10;
    gateway.state.failNext.add('/wallet');
    await user.click(await screen.findByRole('button', { name: /Pay/ }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Your wallet does not hold enough for this payment.'));
    gateway.state.balance = 10_000;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await user.type(await screen.findByLabelText('Verification code'), '123456{Enter}');
    await user.click(await screen.findByRole('button', { name: /Pay/ }));
    await screen.findByText(/is complete/);
  });

  describe('a short wallet', () => {
    /** Signs in as a customer whose wallet holds `balance` of the 5 000 FCFA. */
    async function signInShort(balance: number, props: CheckoutProps = {}) {
      // A gateway with mobile-money methods: the top-up offers those approved on the phone.
      const view = renderCheckout(fakeGateway({ balance, mobileMoney: true }), props);
      await view.user.click(await screen.findByRole('button', { name: 'Pay with my Caisse wallet' }));
      await view.user.type(await screen.findByLabelText('Phone number'), '+237650000001');
      await view.user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
      return view;
    }

    it('offers to top up the missing amount with MTN MoMo, awaits the approval in a live region, then goes on to the code and pays', async () => {
      const onStatusChange = vi.fn();
      const { user, gateway } = await signInShort(1500, { onStatusChange });
      const offer = await screen.findByRole('button', { name: /^Top up FCFA\s3,500 with MTN MoMo$/ });
      expect(screen.getByRole('status').textContent).toMatch(/^Your wallet is FCFA\s3,500 short of this payment\.$/);
      // The number field is labelled, prefilled with the customer's phone, and has focus.
      const phone = screen.getByLabelText('MTN MoMo number') as HTMLInputElement;
      expect(phone.value).toBe('+237650000001');
      expect(phone.getAttribute('autocomplete')).toBe('tel');
      expect(phone.getAttribute('aria-describedby')).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(phone));
      expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
      expect(gateway.state.codesSent).toBe(0);

      await user.click(offer);
      const status = screen.getByRole('status');
      await waitFor(() => expect(status.textContent).toMatch(/^Approve the top-up of FCFA\s3,500 on your phone \(\+237650000001\)\. Waiting for MTN MoMo…$/));
      expect(status.getAttribute('aria-live')).toBe('polite');
      expect(screen.getByText('Keep this page open: the payment goes on once you approve.')).toBeTruthy();
      expect(gateway.state.topups[0]).toMatchObject({ amount: '3500', currency: 'XAF', provider: 'mtn_momo', phoneNumber: '+237650000001' });

      // Approved (the fake settles on the first read, a second later): the code goes out.
      const code = await screen.findByLabelText('Verification code', {}, { timeout: 4000 });
      expect(status.textContent).toMatch(/^Your wallet was topped up with FCFA\s3,500\. A code was sent to/);
      await waitFor(() => expect(document.activeElement).toBe(code));
      await user.keyboard('123456{Enter}');
      await user.click(await screen.findByRole('button', { name: /^Pay FCFA\s5,000$/ }));
      await screen.findByText(/your payment of FCFA\s5,000 is complete/);
      expect(gateway.state.balance).toBe(0);
      expect(onStatusChange.mock.calls.map((c) => c[0])).toEqual([
        'ready',
        'logging-in',
        'topup-offer',
        'topup-pending',
        'otp-sent',
        'otp-verified',
        'charging',
        'succeeded',
      ]);
    });

    it('says why a top-up failed (role=alert), and offers to try again or cancel', async () => {
      const { user, gateway } = await signInShort(0);
      const phone = (await screen.findByLabelText('MTN MoMo number')) as HTMLInputElement;
      await user.clear(phone);
      await user.type(phone, `${REJECTED_NUMBER}{Enter}`);
      const alert = screen.getByRole('alert');
      await waitFor(() => expect(alert.textContent).toBe('The top-up was declined on the phone.'), { timeout: 4000 });
      expect(alert.getAttribute('aria-live')).toBe('assertive');
      const again = screen.getByRole('button', { name: 'Try the top-up again' });
      await waitFor(() => expect(document.activeElement).toBe(again));
      expect(gateway.state.codesSent).toBe(0);

      // Try again: the same offer, the number last typed kept.
      await user.click(again);
      const field = (await screen.findByLabelText('MTN MoMo number')) as HTMLInputElement;
      expect(field.value).toBe(REJECTED_NUMBER);
      expect(alert.textContent).toBe('');
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      // Cancel: back to sign-in, signed out.
      await screen.findByLabelText('Password');
      expect(gateway.client.userId).toBeUndefined();
    });

    it('names no provider of its own: the payer picks one of those the gateway lists, which the top-up asks', async () => {
      const wave = {
        type: 'mobile_money',
        provider: 'wave',
        name: 'Wave',
        approval: 'phone_prompt',
        available: true,
        minAmount: '100',
        maxAmount: '1000000',
        prefixes: ['77'],
        ussd: null,
      };
      const view = renderCheckout(fakeGateway({ balance: 1500, mobileMoney: true, methods: [...METHODS, wave] }));
      await view.user.click(await screen.findByRole('button', { name: 'Pay with my Caisse wallet' }));
      await view.user.type(await screen.findByLabelText('Phone number'), '+237650000001');
      await view.user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
      // The redirect provider (Orange Money) cannot take a top-up approved on the phone.
      const choices = within(await screen.findByRole('group', { name: 'Operator' })).getAllByRole('radio');
      expect(choices.map((c) => c.getAttribute('value'))).toEqual(['mtn_momo', 'wave']);
      await view.user.click(screen.getByRole('radio', { name: 'Wave' }));
      const phone = await screen.findByLabelText('Wave number');
      await view.user.clear(phone);
      await view.user.type(phone, '+221770000001');
      await view.user.click(screen.getByRole('button', { name: /^Top up FCFA\s3,500 with Wave$/ }));
      await waitFor(() => expect(view.gateway.state.topups[0]).toMatchObject({ provider: 'wave', phoneNumber: '+221770000001', amount: '3500' }));
    });

    it('a number the API refuses keeps the offer, with the error tied to the field', async () => {
      const { user } = await signInShort(0);
      const phone = (await screen.findByLabelText('MTN MoMo number')) as HTMLInputElement;
      await user.clear(phone);
      await user.type(phone, '6500{Enter}');
      const alert = screen.getByRole('alert');
      await waitFor(() => expect(alert.textContent).toMatch(/country code/));
      expect(phone.getAttribute('aria-invalid')).toBe('true');
      expect(phone.getAttribute('aria-describedby')).toContain(alert.id);
    });
  });

  it('is themeable through CSS variables, and can leave its stylesheet out', async () => {
    const { container } = renderCheckout(fakeGateway(), { theme: { accent: '#7c3aed', radius: '0', fontFamily: 'Georgia, serif' }, className: 'mine' });
    const root = container.querySelector<HTMLElement>('.caisse-checkout');
    expect(root?.classList.contains('mine')).toBe(true);
    expect(root?.style.getPropertyValue('--caisse-accent')).toBe('#7c3aed');
    expect(root?.style.getPropertyValue('--caisse-radius')).toBe('0');
    expect(root?.style.getPropertyValue('--caisse-font')).toBe('Georgia, serif');
    expect(container.querySelector('style')?.textContent).toContain('--caisse-accent');

    const bare = renderCheckout(fakeGateway(), { unstyled: true });
    expect(bare.container.querySelector('style')).toBeNull();
  });

  it('unstyled, puts no control in a paragraph: fields in div.caisse-field, "Forgot password?" in div.caisse-forgot', async () => {
    const { user, container } = renderCheckout(fakeGateway(), { unstyled: true });
    const signIn = (await screen.findByLabelText('Password')).closest('form');
    // A paragraph's default margins would land around the link on a page that brings its own styles.
    const inParagraph = () => container.querySelectorAll('p button, p input, p a');
    expect(inParagraph()).toHaveLength(0);
    const forgot = screen.getByRole('button', { name: 'Forgot password?' });
    expect(forgot.parentElement?.tagName).toBe('DIV');
    expect(forgot.parentElement?.classList.contains('caisse-forgot')).toBe(true);
    const wrappers = (form: Element | null | undefined) =>
      [...(form?.querySelectorAll('input') ?? [])].map((i) => `${i.parentElement?.tagName}.${i.parentElement?.className}`);
    expect(wrappers(signIn)).toEqual(['DIV.caisse-field field', 'DIV.caisse-field field']);

    await user.type(screen.getByLabelText('Phone number'), '+237650000001');
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    const code = await screen.findByLabelText('Verification code');
    expect(wrappers(code.closest('form'))).toEqual(['DIV.caisse-field field']);
    expect(inParagraph()).toHaveLength(0);
  });
});
