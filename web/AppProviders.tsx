import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { ApiClientProvider } from '../shared/queries/api-client';
import { AppToaster } from './components/AppToaster';
import { api } from './lib/api';

/**
 * Marks the document once the app runs in it (`<html data-ready>`): a page the server rendered
 * reads the same before and after, and this tells that its controls now answer.
 */
function ReadyMark() {
  useEffect(() => {
    document.documentElement.dataset.ready = '';
  }, []);
  return null;
}

/** What wraps every page, in the browser and in the server render alike. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ApiClientProvider client={api}>
          {children}
          <AppToaster />
          <ReadyMark />
        </ApiClientProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
