import { ApiError } from '../errors.ts';

// Restricted keys (rk_…) are secret keys too: they go where sk_… goes, and nowhere else.
const SECRET = /^[sr]k_(test|live)_/;
const PUBLISHABLE = /^pk_(test|live)_/;
const JWT = /^eyJ[\w-]*\.[\w-]*\./;

/** What a secret-looking credential is called, from its prefix alone. */
function secretName(value: string): string {
  return value.startsWith('rk_') ? 'a restricted key (rk_…)' : 'a secret key (sk_…)';
}

/**
 * A credential sent in the wrong place — a secret key as x-api-key or as a customer's token, an
 * API key as the secret key, a customer's token where the secret key belongs — is named for
 * what it is, with where it goes, instead of a bare "not valid". Recognised by form alone:
 * nothing is looked up, and nothing of the value is quoted back.
 */
export function misplacedCredential(kind: 'pk' | 'sk' | 'user', apiKey: string | undefined, bearer: string | undefined): ApiError | undefined {
  if (apiKey !== undefined && SECRET.test(apiKey)) {
    return new ApiError(
      'api_key_invalid',
      `This x-api-key is ${secretName(apiKey)}: send it as Authorization: Bearer, and the publishable key (pk_…) in x-api-key. A secret key never belongs in a browser`,
      { param: 'x-api-key' },
    );
  }
  if (bearer === undefined) return undefined;
  if (kind === 'sk' && PUBLISHABLE.test(bearer)) {
    return new ApiError(
      'secret_key_invalid',
      'The bearer token is a publishable key (pk_…): send it in x-api-key, and the secret key (sk_…) as Authorization: Bearer',
      {
        param: 'authorization',
      },
    );
  }
  if (kind === 'sk' && JWT.test(bearer)) {
    return new ApiError(
      'secret_key_invalid',
      "The bearer token is a customer's access token: this operation is the merchant's, with the secret key (sk_…) as Authorization: Bearer",
      {
        param: 'authorization',
      },
    );
  }
  if (kind === 'user' && SECRET.test(bearer)) {
    return new ApiError(
      'access_token_invalid',
      `The bearer token is ${secretName(bearer)}: this route takes the customer's access token from POST /auth/web as Authorization: Bearer. Never send a secret key from a browser`,
      { param: 'authorization' },
    );
  }
  if (kind === 'user' && PUBLISHABLE.test(bearer)) {
    return new ApiError(
      'access_token_invalid',
      "The bearer token is a publishable key (pk_…): this route takes the customer's access token from POST /auth/web as Authorization: Bearer",
      {
        param: 'authorization',
      },
    );
  }
  return undefined;
}
