import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';

function Checkout() {
  return <main><h1>Checkout</h1></main>;
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Checkout />
  </StrictMode>,
);
