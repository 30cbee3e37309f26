import { useCheckoutText } from '../i18n.tsx';
import type { MobileMoney } from '../useMobileMoney.ts';

/** Mobile money or card, when the intent may be paid both ways (nothing otherwise). */
export function MethodChoice({ mm, id, busy }: { mm: MobileMoney; id: string; busy: boolean }) {
  const { t } = useCheckoutText();
  if (!mm.card || mm.mobileMoney.length === 0) return null;
  const byCard = mm.method === 'card';
  return (
    <fieldset className="caisse-field field">
      <legend>{t('card.method')}</legend>
      <label className="check" htmlFor={`${id}-method-mm`}>
        <input
          id={`${id}-method-mm`}
          type="radio"
          name="method"
          value="mobile_money"
          checked={!byCard}
          disabled={busy}
          onChange={() => mm.chooseMethod('mobile_money')}
        />
        {t('card.mobileMoney')}
      </label>
      <label className="check" htmlFor={`${id}-method-card`}>
        <input id={`${id}-method-card`} type="radio" name="method" value="card" checked={byCard} disabled={busy} onChange={() => mm.chooseMethod('card')} />
        {t('card.card')}
      </label>
    </fieldset>
  );
}
