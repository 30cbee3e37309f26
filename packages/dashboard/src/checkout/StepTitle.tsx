import { type ReactNode, useEffect, useRef } from 'react';

/** Set once the customer clicked or submitted something on the page: from then on, new steps take focus. */
let customerActed = false;
export const acted = () => {
  customerActed = true;
};

/** A heading that takes focus when it appears after the customer acted, so screen readers follow. */
export function StepTitle({ children, id }: { children: ReactNode; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (customerActed || (document.activeElement && document.activeElement !== document.body)) ref.current?.focus();
  }, []);
  return (
    <h2 tabIndex={-1} ref={ref} id={id}>
      {children}
    </h2>
  );
}
