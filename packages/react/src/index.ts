export { CaisseProvider, useCaisse, type CaisseContextValue, type CaisseProviderProps } from './provider.tsx';
export {
  CUSTOMER_MESSAGES,
  shortfall,
  TOPUP_POLL_INTERVAL_MS,
  TOPUP_WAIT_MS,
  useCheckout,
  type Checkout as CheckoutController,
  type CheckoutError,
  type CheckoutState,
  type CheckoutStatus,
  type CheckoutTopUp,
} from './useCheckout.ts';
export { Checkout, CHECKOUT_CSS, CHECKOUT_TEXT, formatAmount, themeStyle, type CheckoutProps, type CheckoutTheme } from './Checkout.tsx';
export { OtpCodeInput, type OtpCodeInputProps } from './OtpCodeInput.tsx';
export { CaisseClient, CaisseError, type PasswordResetRequest, type PublicPaymentIntent, type Topup, type Wallet } from '@caisse/browser';
