export interface SecondaryAction {
  text: string;
  onClick: () => void;
  /** `<Checkout/>`'s look of the button (default `caisse-secondary`). */
  look?: 'caisse-secondary' | 'caisse-link';
}

/** The other ways out of a step (send a new code, cancel, back to sign-in), side by side. */
export function SecondaryActions({ actions, disabled }: { actions: (SecondaryAction | false | undefined)[]; disabled: boolean }) {
  return (
    <div className="actions caisse-actions">
      {actions.map((action, i) =>
        action ? (
          <button key={i} type="button" className={`${action.look ?? 'caisse-secondary'} secondary`} disabled={disabled} onClick={action.onClick}>
            {action.text}
          </button>
        ) : null,
      )}
    </div>
  );
}
