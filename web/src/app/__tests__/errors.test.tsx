import { render, screen } from '@testing-library/react';
import { createMemoryRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { describe, expect, it, vi } from 'vitest';

import { AppProvider } from '@/app/provider';
import { RouteError } from '@/components/errors/route-error';

function Boom(): never {
  throw new Error('Kaboom');
}

function renderRoutes(routes: RouteObject[]) {
  const router = createMemoryRouter(routes);
  return render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

describe('route error screen', () => {
  it('shows the message and stack of a thrown error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderRoutes([{ path: '/', element: <Boom />, errorElement: <RouteError /> }]);

    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Kaboom' })).toBeInTheDocument();
    expect(screen.getByText(/at Boom/)).toBeInTheDocument();
  });

  it('shows status and status text of an error response', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderRoutes([
      {
        path: '/',
        loader: () => {
          throw new Response('', { status: 503, statusText: 'Service Unavailable' });
        },
        element: null,
        errorElement: <RouteError />,
      },
    ]);

    expect(await screen.findByRole('heading', { level: 3, name: '503 Service Unavailable' })).toBeInTheDocument();
  });
});

describe('top-level error boundary', () => {
  it('asks to reload the page', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AppProvider>
        <Boom />
      </AppProvider>,
    );
    expect(screen.getByText('Đã xảy ra lỗi, hãy thử tải lại trang.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tải lại trang' })).toBeInTheDocument();
  });
});
