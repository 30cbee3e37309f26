import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';

function App() {
  return <main><h1>Caisse dashboard</h1></main>;
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
