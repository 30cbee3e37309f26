import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';
import { setApiBase } from '../dashboard/api.ts';
import { createQueryClient } from '../dashboard/queries/client.ts';
import { OperatorApp } from './OperatorApp.tsx';

setApiBase('/operator/api');

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <OperatorApp />
    </QueryClientProvider>
  </StrictMode>,
);
