import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';

import { MainErrorFallback } from '@/components/errors/main-error-fallback';
import { FullPageSpinner } from '@/components/feedback/full-page-spinner';
import { UiProvider } from '@/components/ui/provider';
import { useTagManager } from '@/hooks/use-tag-manager';
import { setUnauthorizedHandler } from '@/lib/api-client';
import { USER_QUERY_KEY } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';

/**
 * Toasts only follow a user's action, so their code loads beside the first page rather than
 * before it; a toast raised earlier is kept by the store and shows once this has loaded.
 */
const Toaster = lazy(() => import('@/components/ui/toaster').then(({ Toaster }) => ({ default: Toaster })));

type AppProviderProps = {
  children: ReactNode;
  /** Tests pass their own client; the app makes one. */
  queryClient?: QueryClient;
};

export function AppProvider({ children, queryClient: given }: AppProviderProps) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  useTagManager();

  // Marks the page as hydrated (or rendered): the browser journeys wait for it before they type
  // into a prerendered form (see the note in e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);

  // A 401 from any call means the session is gone: reload the user so the guard reacts.
  useEffect(() => {
    setUnauthorizedHandler(() => void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }));
    return () => setUnauthorizedHandler(undefined);
  }, [queryClient]);

  return (
    <UiProvider>
      <ErrorBoundary FallbackComponent={MainErrorFallback}>
        <Suspense fallback={<FullPageSpinner />}>
          <QueryClientProvider client={queryClient}>
            {children}
            <Suspense fallback={null}>
              <Toaster />
            </Suspense>
          </QueryClientProvider>
        </Suspense>
      </ErrorBoundary>
    </UiProvider>
  );
}
