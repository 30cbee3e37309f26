export { CaisseProvider, useCaisse, type CaisseContextValue, type CaisseProviderProps } from './provider.tsx';
export {
  shortfall,
  TOPUP_POLL_INTERVAL_MS,
  TOPUP_WAIT_MS,
  topUpProviders,
  useCheckout,
  type Checkout as CheckoutController,
  type CheckoutOptions,
} from './useCheckout.ts';
export {
  atLeast,
  checkoutReducer,
  INITIAL as CHECKOUT_INITIAL,
  suggestProvider,
  type CheckoutError,
  type CheckoutEvent,
  type CheckoutState,
  type CheckoutStatus,
  type CheckoutTopUp,
  type TopUpProvider,
} from './checkoutMachine.ts';
export { Checkout, CHECKOUT_CSS, themeStyle, type CheckoutProps, type CheckoutTheme } from './Checkout.tsx';
export {
  browserLanguages,
  CHECKOUT_ERROR_CODES,
  CHECKOUT_MESSAGES,
  CheckoutIntl,
  checkoutLanguage,
  CUSTOMER_MESSAGES,
  errorMessageId,
  useCheckoutText,
  type CheckoutErrorCode,
  type CheckoutMessageId,
} from './i18n.tsx';
export { formatAmount, formatDate, formatDateTime, type Language, type LanguageChoice } from '@caisse/intl';
export { MobileMoneySteps, type MobileMoneyStepsProps } from './MobileMoney.tsx';
export {
  CARDHOLDER_FIELDS,
  checkCardholder,
  useMobileMoney,
  type CardholderField,
  type CardholderFieldError,
  type MobileMoney,
  type MobileMoneyOptions,
  type MobileMoneyState,
  type MobileMoneyStatus,
} from './useMobileMoney.ts';
export { OtpCodeInput, type OtpCodeInputProps } from './OtpCodeInput.tsx';
export { CardholderStep, type CardholderStepProps } from './steps/CardholderStep.tsx';
export { CodeStep, type CodeStepProps, type CodeTexts } from './steps/CodeStep.tsx';
export { FailedStep, type FailedStepProps } from './steps/FailedStep.tsx';
export { MethodChoice } from './steps/MethodChoice.tsx';
export { OutcomeStep, type OutcomeStepProps } from './steps/OutcomeStep.tsx';
export { PayStep, type PayStepProps } from './steps/PayStep.tsx';
export { ResetCodeStep, type ResetCodeStepProps, type ResetCodeTexts } from './steps/ResetCodeStep.tsx';
export { ResetPhoneStep, type ResetPhoneStepProps, type ResetPhoneTexts } from './steps/ResetPhoneStep.tsx';
export { ReturnLink } from './steps/ReturnLink.tsx';
export { SignInStep, type SignInStepProps, type SignInTexts } from './steps/SignInStep.tsx';
export type { StepProps } from './steps/step.ts';
export { SucceededStep, type SucceededStepProps } from './steps/SucceededStep.tsx';
export { TopUpFailedStep, type TopUpFailedStepProps } from './steps/TopUpFailedStep.tsx';
export { TopUpOfferStep, type TopUpOfferStepProps, type TopUpOfferTexts } from './steps/TopUpOfferStep.tsx';
export { TopUpPendingStep, type TopUpPendingStepProps } from './steps/TopUpPendingStep.tsx';
export {
  CaisseClient,
  CaisseError,
  type CardMethod,
  type Cardholder,
  type MobileMoneyMethod,
  type NextAction,
  type PayerIntent,
  type PaymentAttempt,
  type PaymentMethod,
  type PasswordResetRequest,
  type PublicPaymentIntent,
  type Topup,
  type Wallet,
} from '@caisse/browser';
