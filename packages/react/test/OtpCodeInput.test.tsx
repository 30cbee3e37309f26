import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { FormEvent } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OtpCodeInput } from '../src/index.ts';

afterEach(cleanup);

describe('<OtpCodeInput/>', () => {
  it('is a labelled text field phones fill from the SMS, with the numeric keypad and exactly six digits', () => {
    render(<OtpCodeInput />);
    const input = screen.getByLabelText('Verification code') as HTMLInputElement;
    expect(input.tagName).toBe('INPUT');
    expect(input.id).not.toBe('');
    expect(input.getAttribute('type')).toBe('text');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
    expect(input.getAttribute('pattern')).toBe('[0-9]{6}');
    expect(input.getAttribute('maxlength')).toBe('6');
    expect(input.required).toBe(true);
    expect(input.name).toBe('otp');
    // Nothing claimed about validity or descriptions unless the caller says so.
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
  });

  it('takes its label, id, length, validity, descriptions and any other input attribute from the caller', () => {
    render(
      <>
        <p id="hint">Sent to +237 6•• •• ••01</p>
        <p id="error">That code is not right.</p>
        <OtpCodeInput id="code" label="Code" length={8} invalid describedBy="hint error" name="code" disabled className="wide" labelClassName="strong" />
      </>,
    );
    const input = screen.getByLabelText('Code') as HTMLInputElement;
    expect(input.id).toBe('code');
    expect(input.name).toBe('code');
    expect(input.getAttribute('pattern')).toBe('[0-9]{8}');
    expect(input.getAttribute('maxlength')).toBe('8');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('hint error');
    expect(input.disabled).toBe(true);
    expect(input.className).toBe('wide');
    expect(screen.getByText('Code').className).toBe('strong');
  });

  it('gives each instance its own id, and its value to the form as `otp`', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((e: FormEvent<HTMLFormElement>) => {
      e.preventDefault();
      return new FormData(e.currentTarget).get('otp');
    });
    render(
      <>
        <form onSubmit={onSubmit} aria-label="first">
          <OtpCodeInput label="First code" />
        </form>
        <OtpCodeInput label="Second code" invalid={false} />
      </>,
    );
    const first = screen.getByLabelText('First code');
    expect(first.id).not.toBe(screen.getByLabelText('Second code').id);
    expect(screen.getByLabelText('Second code').getAttribute('aria-invalid')).toBe('false');
    await user.type(first, '012345{Enter}');
    expect(onSubmit).toHaveReturnedWith('012345');
  });
});
