import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';

import { AppProvider } from './provider';
import type { DataRouter } from './start';

export function App({ router, queryClient }: { router: DataRouter; queryClient: QueryClient }) {
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
