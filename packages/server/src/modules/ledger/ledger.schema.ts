import { Type } from 'typebox';

const Balance = Type.Object({
  currency: Type.String({ description: 'ISO 4217 code' }),
  amount: Type.String({ description: 'Decimal string in major units ("5000" XAF, "12.50" EUR)' }),
});

export const Wallet = Type.Object({
  object: Type.Literal('wallet'),
  userId: Type.String(),
  livemode: Type.Boolean(),
  balances: Type.Array(Balance, { description: 'One entry per currency the user holds' }),
  movements: Type.Array(
    Type.Object({
      transferId: Type.String({ description: '`tr_…`' }),
      kind: Type.String({ description: '`funding`, `charge`, `refund`, …' }),
      reference: Type.Union([Type.String(), Type.Null()], { description: 'What caused it, e.g. the payment intent id' }),
      currency: Type.String(),
      amount: Type.String({ description: 'Signed: negative when money left the wallet' }),
      createdAt: Type.String({ format: 'date-time' }),
    }),
    { description: 'The 20 most recent movements, newest first' },
  ),
});

export const FundWalletBody = Type.Object(
  {
    userId: Type.String({ maxLength: 64 }),
    amount: Type.String({ 'x-code': 'amount_invalid', description: 'Decimal string in major units' }),
    currency: Type.String({ description: 'XAF, XOF, EUR or USD' }),
  },
  { additionalProperties: false },
);
