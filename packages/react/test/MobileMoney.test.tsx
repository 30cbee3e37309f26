import type { Timers } from '@caisse/browser';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaisseProvider, Checkout, type CheckoutProps, suggestProvider, useMobileMoney } from '../src/index.ts';
import { CARD_METHOD, fakeGateway, METHODS } from './fake-gateway.ts';

/** Timers that fire only when the test says: the countdown's ticks and the reads' delays. */
function manualTimers() {
  let pending: { run: () => void }[] = [];
  let clock = Date.parse('2026-11-25T10:00:00.000Z');
  const timers: Timers = {
    setTimeout: (run) => {
      const entry = { run };
      pending.push(entry);
      return entry;
    },
    clearTimeout: (handle) => {
      pending = pending.filter((e) => e !== handle);
    },
  };
  return {
    timers,
    now: () => clock,
    /** Moves the clock on and fires every timer due. */
    async advance(ms = 1000) {
      clock += ms;
      const due = pending;
      pending = [];
      await act(async () => due.forEach((e) => e.run()));
    },
  };
}

function renderMobileMoney(props: CheckoutProps = {}, gateway = fakeGateway({ mobileMoney: true })) {
  const user = userEvent.setup();
  const time = manualTimers();
  // The intent and the approval window are dated by the gateway's real clock; the countdown reads the fake one.
  vi.spyOn(Date, 'now').mockImplementation(time.now);
  const onSuccess = vi.fn();
  const navigate = vi.fn();
  render(
    <CaisseProvider apiKey="pk_test_abcdefghijklmnopqrstuvwx" clientSecret="ps_good" client={gateway.client}>
      <Checkout locale="fr-CM" merchantName="Boutique Mangue" onSuccess={onSuccess} mobileMoney={{ timers: time.timers, now: time.now, navigate }} {...props} />
    </CaisseProvider>,
  );
  return { user, gateway, time, onSuccess, navigate };
}

/** The text of the page's alerts (the checkout's own, empty here, and the mobile-money step's). */
const alerts = () =>
  screen
    .getAllByRole('alert')
    .map((a) => a.textContent)
    .join('');

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('suggestProvider', () => {
  const mm = METHODS.filter((m) => m.type === 'mobile_money') as Parameters<typeof suggestProvider>[1];
  it('suggests the operator from the longest prefix, with or without the country code', () => {
    expect(suggestProvider('+237 670 00 00 00', mm)).toBe('mtn_momo');
    expect(suggestProvider('+237650000000', mm)).toBe('mtn_momo');
    expect(suggestProvider('+237 655 00 00 00', mm)).toBe('orange_money');
    expect(suggestProvider('690000000', mm)).toBe('orange_money');
    expect(suggestProvider('+237 62', mm)).toBeUndefined();
  });

  it('suggests a method only an aggregator reaches from a number typed without its country code (Benin)', () => {
    const benin = [
      { provider: 'mtn_momo', prefixes: ['+2290197', '+2290142'] },
      { provider: 'moov_money', prefixes: ['+2290145', '+2290199'] },
    ];
    expect(suggestProvider('01 45 11 22 33', benin)).toBe('moov_money');
    expect(suggestProvider('+229 01 97 12 34 56', benin)).toBe('mtn_momo');
    expect(suggestProvider('0197123456', benin)).toBe('mtn_momo');
    expect(suggestProvider('01 40', benin)).toBeUndefined();
  });
});

// Whole checkouts with many renders: room for a machine shared with other builds.
describe('<Checkout/> with mobile money', { timeout: 20_000 }, () => {
  it('pays with MTN MoMo in French: operator from the number, what to do and the time left, then the amount, the merchant and the way back', async () => {
    const { user, gateway, time, onSuccess } = renderMobileMoney({ returnUrl: 'https://shop.example/orders/42' });
    await screen.findByRole('heading', { name: 'Payer par mobile money' });
    // Mobile money first, the wallet as one more option.
    expect(screen.getByRole('button', { name: 'Payer avec mon portefeuille Caisse' })).toBeTruthy();

    const phone = screen.getByLabelText('Numéro mobile money');
    await user.type(phone, '+237 690 00 00 00');
    expect((screen.getByRole('radio', { name: 'Orange Money' }) as HTMLInputElement).checked).toBe(true);
    await user.clear(phone);
    await user.type(phone, '+237 670 00 00 00');
    expect((screen.getByRole('radio', { name: 'MTN MoMo' }) as HTMLInputElement).checked).toBe(true);

    await user.click(screen.getByRole('button', { name: /Payer 5\s000\sFCFA avec MTN MoMo/ }));
    await screen.findByRole('heading', { name: 'Approuvez le paiement sur votre téléphone' });
    expect(screen.getByText('Composez *126# si la demande n’apparaît pas.')).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('Temps restant pour approuver : 5:00');
    expect(gateway.state.mmCharges).toHaveLength(1);
    expect(gateway.state.mmCharges[0]).toMatchObject({
      sessionToken: 'ps_good',
      body: { intentionId: 'pi_1', paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237670000000' } },
    });

    await time.advance(1000);
    await screen.findByRole('heading', { name: 'Paiement effectué' });
    expect(screen.getByText(/Merci : vous avez payé 5\s000\sFCFA à Boutique Mangue\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Retour à Boutique Mangue' }).getAttribute('href')).toBe('https://shop.example/orders/42');
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('waits on long-polls when the server holds reads: the outcome comes with no read delay', async () => {
    const { user, gateway, onSuccess } = renderMobileMoney({}, fakeGateway({ mobileMoney: true, longPoll: true }));
    await user.type(await screen.findByLabelText('Numéro mobile money'), '+237670000000');
    await user.click(screen.getByRole('button', { name: /avec MTN MoMo/ }));
    // No timer moved: each held read that comes back unchanged is sent again at once.
    await screen.findByRole('heading', { name: 'Paiement effectué' });
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(gateway.state.sessionReads.filter((q) => q === '?status=PROCESSING&wait=25')).toHaveLength(2);
  });

  it('after a decline offers to send the request again (a new request) or to pay another way, here with the wallet', async () => {
    const { user, gateway, time } = renderMobileMoney({ returnUrl: 'https://shop.example/orders/42' });
    const phone = await screen.findByLabelText('Numéro mobile money');
    await user.type(phone, '+237670000105');
    await user.click(screen.getByRole('button', { name: /avec MTN MoMo/ }));
    await screen.findByRole('timer');
    await time.advance(1000);
    await screen.findByRole('heading', { name: 'Le paiement n’a pas abouti' });
    expect(alerts()).toBe('Le paiement a été refusé sur le téléphone.');

    await user.click(screen.getByRole('button', { name: 'Renvoyer la demande' }));
    await screen.findByRole('timer');
    await time.advance(1000);
    await screen.findByRole('heading', { name: 'Le paiement n’a pas abouti' });
    const [first, second] = gateway.state.mmCharges;
    expect(second?.body).toEqual(first?.body);
    expect(second?.key).not.toBe(first?.key);

    await user.click(screen.getByRole('button', { name: 'Payer autrement' }));
    await user.click(await screen.findByRole('button', { name: 'Payer avec mon portefeuille Caisse' }));
    await user.type(await screen.findByLabelText('Numéro de téléphone'), '+237650000001');
    await user.type(screen.getByLabelText('Mot de passe'), 'correct horse{Enter}');
    await user.type(await screen.findByLabelText('Code de vérification'), '123456{Enter}');
    await user.click(await screen.findByRole('button', { name: /Payer 5\s000\sFCFA/ }));
    await screen.findByText(/Merci : vous avez payé 5\s000\sFCFA à Boutique Mangue\./);
    expect(screen.getByText('Référence pi_1')).toBeTruthy();
    // The wallet's success leads back to the shop too.
    expect(screen.getByRole('link', { name: 'Retour à Boutique Mangue' }).getAttribute('href')).toBe('https://shop.example/orders/42');
  });

  it('never leaves the payer waiting without a way out: once the approval window is over, another way is offered', async () => {
    const gateway = fakeGateway({ mobileMoney: true });
    gateway.state.attemptReadsToSettle = 1_000;
    const { user, time } = renderMobileMoney({}, gateway);
    await user.type(await screen.findByLabelText('Numéro mobile money'), '+237670000000');
    await user.click(screen.getByRole('button', { name: /avec MTN MoMo/ }));
    await screen.findByRole('timer');
    expect(screen.queryByRole('button', { name: 'Payer autrement' })).toBeNull();
    await time.advance(60_000);
    expect(screen.getByRole('timer').textContent).toBe('Temps restant pour approuver : 4:00');
    await time.advance(4 * 60_000);
    await user.click(await screen.findByRole('button', { name: 'Payer autrement' }));
    // The attempt is still in flight at the provider: the gateway says so, in the payer's words.
    await user.click(await screen.findByRole('radio', { name: 'MTN MoMo' }));
    await user.click(screen.getByRole('button', { name: /avec MTN MoMo/ }));
    await waitFor(() => expect(alerts()).toBe('Une demande attend encore sur votre téléphone : approuvez-la ou refusez-la d’abord.'));
  });

  it('enters the approval step with its countdown: no render shows the window as over before it started', async () => {
    const gateway = fakeGateway({ mobileMoney: true });
    const time = manualTimers();
    vi.spyOn(Date, 'now').mockImplementation(time.now);
    const wrapper = ({ children }: { children?: ReactNode }) => (
      <CaisseProvider apiKey="pk_test_abcdefghijklmnopqrstuvwx" clientSecret="ps_good" client={gateway.client}>
        {children}
      </CaisseProvider>
    );
    const waiting: (number | undefined)[] = [];
    const { result } = renderHook(
      () => {
        const mm = useMobileMoney(gateway.state.intent, { timers: time.timers, now: time.now });
        if (mm.status === 'waiting') waiting.push(mm.secondsLeft);
        return mm;
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.status).toBe('choose'));
    act(() => result.current.setPhoneNumber('+237670000000'));
    act(() => {
      void result.current.pay();
    });
    await waitFor(() => expect(result.current.status).toBe('waiting'));
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((s) => s === 300)).toBe(true);
  });

  it('sends the browser to a redirect provider’s page', async () => {
    const { user, navigate } = renderMobileMoney();
    await user.type(await screen.findByLabelText('Numéro mobile money'), '+237690000000');
    await user.click(screen.getByRole('button', { name: /avec Orange Money/ }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://sandbox.example/orange/pay/1'));
    expect(screen.getByRole('link', { name: 'Continuer vers Orange Money' })).toBeTruthy();
  });

  it('keeps the operator the payer picked, and shows a refused number next to the field', async () => {
    const { user } = renderMobileMoney();
    await user.click(await screen.findByRole('radio', { name: 'Orange Money' }));
    await user.type(screen.getByLabelText('Numéro mobile money'), '670000000');
    expect((screen.getByRole('radio', { name: 'Orange Money' }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: /avec Orange Money/ }));
    const field = screen.getByLabelText('Numéro mobile money');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(alerts()).toBe(
      'Ce n’est pas un numéro mobile valide. Saisissez-le comme vous l’écrivez d’habitude (espaces acceptés), ou avec son indicatif (+…) s’il est d’un autre pays.',
    );
  });

  it("back from Orange Money's page after a decline, the page says so and offers to send again or pay another way", async () => {
    const gateway = fakeGateway({ mobileMoney: true });
    gateway.state.intent = { ...gateway.state.intent, status: 'PENDING', lastError: { code: 'approval_rejected', message: 'The payer declined' } };
    gateway.state.mmAttempts.push({
      id: 'att_1',
      provider: 'orange_money',
      status: 'FAILED',
      failureCode: 'approval_rejected',
      createdAt: new Date(Date.now() - 60_000).toISOString(),
      phoneNumber: '+237690000000',
      reads: 0,
    });
    const { user } = renderMobileMoney({}, gateway);
    await screen.findByRole('heading', { name: 'Le paiement n’a pas abouti' });
    expect(alerts()).toBe('Le paiement a été refusé sur le téléphone.');
    await user.click(screen.getByRole('button', { name: 'Payer autrement' }));
    // Once: back to the choice, it stays there.
    expect(await screen.findByRole('button', { name: /avec Orange Money/ })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Le paiement n’a pas abouti' })).toBeNull();
  });

  it('keeps waiting for an attempt found in flight when the methods arrive after it', async () => {
    const gateway = fakeGateway({ mobileMoney: true });
    gateway.state.intent = { ...gateway.state.intent, status: 'PROCESSING' };
    gateway.state.mmAttempts.push({
      id: 'att_1',
      provider: 'mtn_momo',
      status: 'PENDING',
      createdAt: new Date().toISOString(),
      phoneNumber: '+237670000000',
      reads: 0,
    });
    gateway.state.attemptReadsToSettle = 99;
    // The methods answer late: after the intent was read PROCESSING.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const methods = gateway.client.getPaymentMethods.bind(gateway.client);
    gateway.client.getPaymentMethods = (token) => released.then(() => methods(token));
    renderMobileMoney({}, gateway);
    await screen.findByRole('heading', { name: 'Approuvez le paiement sur votre téléphone' });
    release();
    await released;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.getByRole('heading', { name: 'Approuvez le paiement sur votre téléphone' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /avec MTN MoMo/ })).toBeNull();
  });

  it('waits for an attempt already in flight when the page opens', async () => {
    const gateway = fakeGateway({ mobileMoney: true });
    gateway.state.intent = { ...gateway.state.intent, status: 'PROCESSING' };
    gateway.state.mmAttempts.push({
      id: 'att_1',
      provider: 'mtn_momo',
      status: 'PENDING',
      createdAt: new Date().toISOString(),
      phoneNumber: '+237670000000',
      reads: 0,
    });
    // Read once by the page as it opens, once by the wait; approved on the next read.
    gateway.state.attemptReadsToSettle = 3;
    const { time } = renderMobileMoney({}, gateway);
    await screen.findByRole('heading', { name: 'Approuvez le paiement sur votre téléphone' });
    // The wait's own read may still be on its way when the page shows: move time until it is answered.
    await waitFor(
      async () => {
        await time.advance(1000);
        expect(screen.queryByRole('heading', { name: 'Paiement effectué' })).not.toBeNull();
      },
      { timeout: 10_000 },
    );
  });
  it("back from a provider's page still open (a decline Wave keeps open), the payer pays another way at once", async () => {
    const gateway = fakeGateway({ mobileMoney: true });
    gateway.state.intent = { ...gateway.state.intent, status: 'PROCESSING' };
    gateway.state.mmAttempts.push({
      id: 'att_1',
      provider: 'orange_money',
      status: 'PENDING',
      createdAt: new Date().toISOString(),
      phoneNumber: '+237690000000',
      reads: 0,
    });
    // The provider never decides it on its own while the payer is here.
    gateway.state.attemptReadsToSettle = 1000;
    const { user } = renderMobileMoney({}, gateway);
    await user.click(await screen.findByRole('button', { name: 'Payer autrement' }));
    await user.type(await screen.findByLabelText('Numéro mobile money'), '+237670000000');
    await user.click(screen.getByRole('button', { name: /avec MTN MoMo/ }));
    await screen.findByRole('heading', { name: 'Approuvez le paiement sur votre téléphone' });
    expect(gateway.state.mmAttempts.map((a) => `${a.provider} ${a.status}`)).toEqual(['orange_money FAILED', 'mtn_momo PENDING']);
  });
});

describe('<Checkout/> with a card', { timeout: 20_000 }, () => {
  const withCard = () => fakeGateway({ mobileMoney: true, methods: [...METHODS.slice(0, 2), CARD_METHOD, { type: 'wallet' }] });

  it("asks the card holder's details, each error next to its field, then sends the browser to the card page, never a card number", async () => {
    const gateway = withCard();
    const { user, navigate } = renderMobileMoney({}, gateway);
    await user.click(await screen.findByRole('radio', { name: 'Carte bancaire' }));
    expect(screen.getByRole('heading', { name: 'Payer par carte bancaire' })).toBeTruthy();
    const pay = screen.getByRole('button', { name: /par carte$/ });
    await user.click(pay);
    // Nothing sent: every field says it is missing.
    expect(screen.getAllByText('Renseignez ce champ.')).toHaveLength(8);
    expect(screen.getByLabelText('Prénom').getAttribute('aria-invalid')).toBe('true');
    expect(gateway.state.mmCharges).toHaveLength(0);

    await user.type(screen.getByLabelText('Prénom'), 'Awa');
    await user.type(screen.getByLabelText('Nom'), 'Koné');
    await user.type(screen.getByLabelText('Adresse e-mail'), 'awa@kone.invalid');
    await user.type(screen.getByLabelText('Numéro de téléphone'), '07 01 02 03 04');
    await user.type(screen.getByLabelText('Adresse'), 'Rue des Jardins');
    await user.type(screen.getByLabelText('Ville'), 'Abidjan');
    await user.type(screen.getByLabelText('Code postal'), '00225');
    await user.selectOptions(screen.getByLabelText('Pays'), 'CI');
    expect(screen.queryAllByText('Renseignez ce champ.')).toHaveLength(0);
    // The API refuses the e-mail: said next to it.
    await user.click(pay);
    await waitFor(() => expect(screen.getByLabelText('Adresse e-mail').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Cette information n’est pas valide. Vérifiez-la et réessayez.')).toBeTruthy();

    await user.clear(screen.getByLabelText('Adresse e-mail'));
    await user.type(screen.getByLabelText('Adresse e-mail'), 'awa@kone.ci');
    await user.click(pay);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://sandbox.example/card/pay/1'));
    const sent = gateway.state.mmCharges.at(-1)?.body as { paymentMethod: unknown };
    expect(sent.paymentMethod).toEqual({
      type: 'card',
      cardholder: {
        name: 'Awa',
        surname: 'Koné',
        email: 'awa@kone.ci',
        phoneNumber: '0701020304',
        address: 'Rue des Jardins',
        city: 'Abidjan',
        zipCode: '00225',
        country: 'CI',
      },
    });
  });

  it('offers the card form alone when the intent takes no mobile money, in English', async () => {
    const gateway = fakeGateway({ mobileMoney: true, methods: [CARD_METHOD] });
    renderMobileMoney({ locale: 'en-CI' }, gateway);
    expect(await screen.findByRole('heading', { name: 'Pay by card' })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: 'Card' })).toBeNull();
    expect(screen.getByLabelText('First name')).toBeTruthy();
  });
});

describe('<Checkout/> with a pre-authorisation code', { timeout: 20_000 }, () => {
  const CODE_METHOD = {
    type: 'mobile_money',
    provider: 'orange_money',
    name: 'Orange Money',
    approval: 'pre_authorisation_code',
    available: true,
    minAmount: '100',
    maxAmount: '1000000',
    prefixes: [],
    ussd: null,
    preAuthorisationUssd: '*144*4*6#',
  };

  it('asks for the code with how to make it, and sends it with the charge; a method that prompts asks for none', async () => {
    const { user, gateway } = renderMobileMoney({}, fakeGateway({ mobileMoney: true, methods: [METHODS[0] as Record<string, unknown>, CODE_METHOD] }));
    await user.type(await screen.findByLabelText('Numéro mobile money'), '+237670000000');
    expect(screen.queryByLabelText('Code à usage unique MTN MoMo')).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Orange Money' }));
    const code = screen.getByLabelText('Code à usage unique Orange Money');
    expect(screen.getByText(/composez \*144\*4\*6#, saisissez le montant et votre code PIN/)).toBeTruthy();
    await user.type(code, '48 29 13');
    await user.click(screen.getByRole('button', { name: /avec Orange Money/ }));
    await waitFor(() => expect(gateway.state.mmCharges).toHaveLength(1));
    expect(gateway.state.mmCharges[0]?.body).toMatchObject({ paymentMethod: { provider: 'orange_money', preAuthorisationCode: '482913' } });
  });
});
