import { CaisseClient } from '@caisse/browser';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

export interface CaisseContextValue {
  client: CaisseClient;
  /** The intent's session token (`ps_…`), which the merchant's server got from `intents.create`. */
  clientSecret: string;
}

const CaisseContext = createContext<CaisseContextValue | null>(null);

export interface CaisseProviderProps {
  /** The publishable API key (`pk_test_…` / `pk_live_…`). */
  apiKey: string;
  /** The payment intent's session token, handed to the page by the merchant's server. */
  clientSecret: string;
  /** Your Caisse gateway's base URL (https; plain http only on localhost); required unless `client` is given. */
  baseUrl?: string;
  /** A client to use instead of one built from apiKey and baseUrl (tests, custom fetch). */
  client?: CaisseClient;
  children?: ReactNode;
}

/**
 * Makes a Caisse client and the intent's client secret available to useCheckout() and
 * <Checkout/> below it. The client keeps the customer's tokens in memory for the page's life.
 */
export function CaisseProvider({ apiKey, clientSecret, baseUrl, client, children }: CaisseProviderProps) {
  const value = useMemo<CaisseContextValue>(
    () => ({ client: client ?? new CaisseClient({ apiKey, baseUrl: baseUrl as string }), clientSecret }),
    [client, apiKey, baseUrl, clientSecret],
  );
  return <CaisseContext.Provider value={value}>{children}</CaisseContext.Provider>;
}

export function useCaisse(): CaisseContextValue {
  const value = useContext(CaisseContext);
  if (value === null) throw new Error('useCaisse and useCheckout must be used inside <CaisseProvider>');
  return value;
}
