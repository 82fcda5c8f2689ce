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
  it('show only the page fallback while the user loads', async () => {
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

    renderApp('/transactions');

    await waitFor(() => expect(asked).toBe(true));
    expect(await screen.findByText('Đang tải dữ liệu...')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Đang tải dữ liệu...');
    // No part of the page before the user is known: no shell, no screen.
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('heading')).toBeNull();

    release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeInTheDocument();
    expect(screen.queryByText('Đang tải dữ liệu...')).toBeNull();
  });

  it('send a signed-out visitor to /login by a page load, and back after signing in', async () => {
    const { router, events, fullNavigations } = renderApp('/transactions?page=2');
    // The spy renderApp put in place, which follows the page load in the test's router.
    const replace = vi.spyOn(browser, 'replace');

    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(fullNavigations).toEqual(['/login?next_uri=%2Ftransactions%3Fpage%3D2']);
    expect(replace).toHaveBeenCalledWith('/login?next_uri=%2Ftransactions%3Fpage%3D2');
    expect(router.state.location.pathname).toBe('/login');

    await signIn(events);

    expect(await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeInTheDocument();
    expect(fullNavigations.at(-1)).toBe(`${window.location.origin}/transactions?page=2`);
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

  it('send a signed-out visitor of / to plain /login', async () => {
    const { fullNavigations } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(fullNavigations).toEqual(['/login']);
  });

  it('reload the browser at /login when the session ends', async () => {
    const replace = vi.spyOn(browser, 'replace').mockImplementation(() => undefined);
    const { queryClient } = renderApp('/security', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Bảo mật và đăng nhập' });
    expect(replace).not.toHaveBeenCalled();

    db.signedIn = false;
    await act(() => queryClient.invalidateQueries({ queryKey: ['me'] }));

    await waitFor(() => expect(replace).toHaveBeenCalledWith('/login?next_uri=%2Fsecurity'));
    expect(screen.queryByRole('heading', { name: 'Bảo mật và đăng nhập' })).toBeNull();
    expect(screen.getByText('Đang tải dữ liệu...')).toBeInTheDocument();
  });

  it('reload the browser at /login when another call answers 401', async () => {
    const replace = vi.spyOn(browser, 'replace').mockImplementation(() => undefined);
    server.use(http.get('/api/payment/transaction-history', () => HttpResponse.json({ message: 'x' }, { status: 401 })));
    renderApp('/transactions', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' });

    db.signedIn = false;
    await act(() => api.GET('/payment/transaction-history').catch(() => undefined));

    await waitFor(() => expect(replace).toHaveBeenCalledWith('/login?next_uri=%2Ftransactions'));
  });

  it('say the connection failed when the user cannot be loaded', async () => {
    server.use(http.get('/api/me', () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    const { fullNavigations } = renderApp('/');
    expect(await screen.findByText('Kết nối đến máy chủ bị gián đoạn, xin thử lại sau')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Đăng nhập' })).toBeNull();
    expect(fullNavigations).toEqual([]);
  });
});

describe('sign-in and sign-up for a signed-in user', () => {
  it('/login goes to / by a page load', async () => {
    const { router, fullNavigations } = renderApp('/login', { user: true });
    const replace = vi.spyOn(browser, 'replace');
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(fullNavigations).toEqual(['/']);
    expect(replace).toHaveBeenCalledWith('/');
  });

  it('/login goes back to the page the user came from by a page load', async () => {
    const { router, fullNavigations } = renderApp('/transactions', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' });

    await act(() =>
      router.navigate('/login', { state: { from: { pathname: '/recharge', search: '?x=1', hash: '' } } }),
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Nạp game' })).toBeInTheDocument();
    expect(fullNavigations).toEqual(['/recharge?x=1']);
    expect(router.state.location.pathname).toBe('/recharge');
  });

  it('/register goes back to the page the user came from within the app', async () => {
    const { router, fullNavigations } = renderApp('/transactions', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' });

    await act(() => router.navigate('/register', { state: { from: { pathname: '/recharge', search: '', hash: '' } } }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Nạp game' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/recharge');
    expect(fullNavigations).toEqual([]);
  });

  it('/login?next_uri= loads next_uri in the browser', async () => {
    const replace = vi.spyOn(browser, 'replace').mockImplementation(() => undefined);
    renderApp('/login?next_uri=%2Frecharge%2Ffsonline', { user: true });
    await waitFor(() => expect(replace).toHaveBeenCalledWith(`${window.location.origin}/recharge/fsonline`));
    expect(replace).toHaveBeenCalledTimes(1);
  });

  it("/login ignores a next_uri on someone else's site", async () => {
    const { router, fullNavigations } = renderApp('/login?next_uri=https%3A%2F%2Fevil.example%2Fsteal', {
      user: true,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(fullNavigations).toEqual(['/']);
  });

  it('/login shows the form to a signed-out visitor', async () => {
    const { fullNavigations } = renderApp('/login?next_uri=%2Frecharge');
    expect(await screen.findByRole('button', { name: 'Đăng nhập' })).toBeInTheDocument();
    expect(fullNavigations).toEqual([]);
  });
});
