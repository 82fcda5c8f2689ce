import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { api } from '@/lib/api-client';
import { browser } from '@/lib/browser';
import { TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { act, renderApp, screen, waitFor } from '@/testing/test-utils';

async function signIn(events: ReturnType<typeof renderApp>['events']) {
  await events.type(await screen.findByLabelText(/Tên đăng nhập/), 'player01');
  await events.type(screen.getByLabelText(/Mật khẩu/), TEST_PASSWORD);
  await events.click(screen.getByRole('button', { name: 'Đăng nhập' }));
}

describe('guarded routes', () => {
  it('show nothing while the user loads', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    db.signedIn = true;
    server.use(
      http.get('/api/me', async () => {
        asked = true;
        await answered;
        return HttpResponse.json(db.user);
      }),
    );

    const { container } = renderApp('/transactions');

    await waitFor(() => expect(asked).toBe(true));
    // next-themes' inline script is the only thing in the document.
    expect(container.querySelectorAll('*:not(script)')).toHaveLength(0);
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('heading')).toBeNull();

    release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeInTheDocument();
  });

  it('send a signed-out visitor to /login and back after signing in', async () => {
    const { router, events } = renderApp('/transactions?page=2');

    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/transactions', search: '?page=2' } });

    await signIn(events);

    expect(await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/transactions');
    expect(router.state.location.search).toBe('?page=2');
    // The guarded page loads its data only once signed in.
    await waitFor(() =>
      expect(db.requests.filter((r) => r !== 'GET /api/me')).toEqual([
        'GET /api/auth/csrf-cookie',
        'POST /api/auth/login',
        'GET /api/payment/transaction-history',
      ]),
    );
  });

  it('reload the browser at /login when the session ends', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { queryClient } = renderApp('/security', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Bảo mật và đăng nhập' });
    expect(assign).not.toHaveBeenCalled();

    db.signedIn = false;
    await act(() => queryClient.invalidateQueries({ queryKey: ['me'] }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(screen.queryByRole('heading', { name: 'Bảo mật và đăng nhập' })).toBeNull();
  });

  it('reload the browser at /login when another call answers 401', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    server.use(http.get('/api/payment/transaction-history', () => HttpResponse.json({ message: 'x' }, { status: 401 })));
    renderApp('/transactions', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' });

    db.signedIn = false;
    await act(() => api.get('/payment/transaction-history').catch(() => undefined));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
  });

  it('say the connection failed when the user cannot be loaded', async () => {
    server.use(http.get('/api/me', () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    renderApp('/');
    expect(await screen.findByText('Kết nối đến máy chủ bị gián đoạn, xin thử lại sau')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Đăng nhập' })).toBeNull();
  });
});

describe('sign-in and sign-up for a signed-in user', () => {
  it('/login goes to /', async () => {
    const { router } = renderApp('/login', { user: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('/register goes back to the page the user came from', async () => {
    const { router } = renderApp('/transactions', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' });

    await act(() => router.navigate('/register', { state: { from: { pathname: '/recharge', search: '', hash: '' } } }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Nạp game' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/recharge');
  });

  it('/login?next_uri= loads next_uri in the browser', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderApp('/login?next_uri=%2Frecharge%2Ffsonline', { user: true });
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${window.location.origin}/recharge/fsonline`));
  });

  it("/login ignores a next_uri on someone else's site", async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { router } = renderApp('/login?next_uri=https%3A%2F%2Fevil.example%2Fsteal', { user: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(assign).not.toHaveBeenCalled();
  });

  it('/login shows the form to a signed-out visitor', async () => {
    renderApp('/login?next_uri=%2Frecharge');
    expect(await screen.findByRole('button', { name: 'Đăng nhập' })).toBeInTheDocument();
  });
});
