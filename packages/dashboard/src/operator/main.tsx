import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';
import { setApiBase } from '../dashboard/api.ts';
import { OperatorApp } from './OperatorApp.tsx';

setApiBase('/operator/api');

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <OperatorApp />
  </StrictMode>,
);
