import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaisseProvider, CodeStep, PayStep, SignInStep, SucceededStep, useCheckout } from '../src/index.ts';
import { fakeGateway } from './fake-gateway.ts';

/** A page of its own (as the hosted checkout is) composed of the exported steps, with its own texts, headings and error. */
function OwnPage() {
  const checkout = useCheckout();
  const alert = checkout.error ? (
    <p role="alert" id="own-error">
      Refused: {checkout.error.code}
    </p>
  ) : null;
  const common = { checkout, alert, errorId: alert ? 'own-error' : undefined };
  switch (checkout.status) {
    case 'ready':
    case 'logging-in':
      return (
        <SignInStep
          {...common}
          title={<h1 id="own-title">Sign in to pay</h1>}
          titleId="own-title"
          ids={{ phone: 'own-phone', password: 'own-password' }}
          channel="email"
          texts={{ everyShop: 'One account', phoneNumber: 'Number', password: 'Secret', continue: 'Go on', signingIn: 'Going', forgotPassword: 'Lost it?' }}
        />
      );
    case 'otp-sent':
      return (
        <CodeStep
          {...common}
          ids={{ hint: 'own-hint', code: 'own-code' }}
          texts={{ hint: 'Look at your mail', code: 'The code', checking: 'Checking', verify: 'Check it', sendNewCode: 'Again', switchChannel: 'By SMS' }}
        />
      );
    case 'otp-verified':
    case 'charging':
      return <PayStep {...common} texts={{ paying: 'Paying', pay: 'Pay now' }} />;
    case 'succeeded':
      return <SucceededStep title={<h1>Done</h1>} returnUrl="https://shop.example/done" texts={{ message: 'Thank you', returnTo: 'Back to the shop' }} />;
    default:
      return <p>{checkout.status}</p>;
  }
}

afterEach(cleanup);

describe("@caisse/react's steps", () => {
  it('compose a page of its own: its texts, its heading labelling the form, its error tied to the fields, its code channel', async () => {
    const gateway = fakeGateway();
    const initOtp = vi.spyOn(gateway.client, 'initOtp');
    const user = userEvent.setup();
    render(
      <CaisseProvider apiKey="pk_test_abcdefghijklmnopqrstuvwx" clientSecret="ps_good" client={gateway.client}>
        <OwnPage />
      </CaisseProvider>,
    );
    const form = await screen.findByRole('form', { name: 'Sign in to pay' });
    expect(form.textContent).toContain('One account');
    const phone = screen.getByLabelText('Number');
    // Left out rather than "false" until something was refused.
    expect(phone.hasAttribute('aria-invalid')).toBe(false);

    await user.type(phone, '+237 650 00 00 01');
    await user.type(screen.getByLabelText('Secret'), 'wrong{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Refused: invalid_credentials');
    expect(screen.getByLabelText('Number').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Number').getAttribute('aria-describedby')).toBe('own-error');

    await user.clear(screen.getByLabelText('Secret'));
    await user.type(screen.getByLabelText('Secret'), 'correct horse{Enter}');
    const code = await screen.findByLabelText('The code');
    expect(code.getAttribute('aria-describedby')).toBe('own-hint');
    expect(initOtp).toHaveBeenCalledWith(expect.objectContaining({ channel: 'email' }));
    expect(screen.getByRole('button', { name: 'By SMS' })).toBeTruthy();
    await user.type(code, '123456{Enter}');

    await user.click(await screen.findByRole('button', { name: 'Pay now' }));
    await screen.findByRole('heading', { name: 'Done' });
    expect(screen.getByText('Thank you')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the shop' }).getAttribute('href')).toBe('https://shop.example/done');
  });
});
