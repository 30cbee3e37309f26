import type { ReactNode } from 'react';

/** The way back to the shop once the payment is over (nothing without a URL). */
export function ReturnLink({ href, children }: { href?: string | null; children: ReactNode }) {
  return href ? (
    <p>
      <a href={href} className="caisse-return button">
        {children}
      </a>
    </p>
  ) : null;
}
