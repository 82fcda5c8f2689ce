import { describe, expect, it, vi } from 'vitest';

import { browser } from '@/lib/browser';
import { buildUser } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { act, fireEvent, renderApp, screen, waitFor, within } from '@/testing/test-utils';

function scrollWindowTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true, writable: true });
  act(() => {
    fireEvent.scroll(window);
  });
}

describe('signed-in shell', () => {
  it('switches the header to its scrolled style at 85 px', async () => {
    renderApp('/', { user: true });
    const header = await screen.findByRole('banner');
    expect(header).not.toHaveAttribute('data-scrolled');

    scrollWindowTo(84);
    expect(header).not.toHaveAttribute('data-scrolled');

    scrollWindowTo(85);
    expect(header).toHaveAttribute('data-scrolled');
    const scrolledClass = header.className;

    scrollWindowTo(10);
    expect(header).not.toHaveAttribute('data-scrolled');
    expect(header.className).not.toBe(scrolledClass);
  });

  it('lists the sections in order, marking the current one', async () => {
    renderApp('/payment/card', { user: true });
    const nav = await screen.findByRole('navigation', { name: 'Quản lý tài khoản' });

    const entries = within(nav)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(entries).toEqual([
      'Thông tin cá nhân',
      'Bảo mật và đăng nhập',
      'Nạp thẻ',
      'Nạp game',
      'Nhập giftcode',
      'Lịch sử giao dịch',
      'Đăng xuất',
    ]);
    expect(within(nav).getByRole('link', { name: 'Thông tin cá nhân' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Nạp game' })).toHaveAttribute('href', '/recharge');
    expect(within(nav).getByRole('link', { name: 'Nhập giftcode' })).toHaveAttribute('href', '/giftcode');
    expect(within(nav).getByRole('link', { name: 'Nạp thẻ' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Thông tin cá nhân' })).not.toHaveAttribute('aria-current');
  });

  it('on phones shows the current section and opens into the navigation', async () => {
    const { events, router } = renderApp('/recharge/fsonline', { user: true });
    const mobile = await screen.findByTestId('mobile-nav');
    const toggle = within(mobile).getByRole('button', { name: 'Nạp game' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(mobile).queryByRole('link')).toBeNull();

    await events.click(toggle);
    // The collapsible's state machine settles asynchronously.
    await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'true'));
    await events.click(await within(mobile).findByRole('link', { name: 'Bảo mật và đăng nhập' }));

    expect(await within(mobile).findByRole('button', { name: 'Bảo mật và đăng nhập' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(router.state.location.pathname).toBe('/security');
  });

  it('links to the news site in a new tab, support and the game download page', async () => {
    renderApp('/', { user: true });
    const header = await screen.findByRole('banner');
    const news = within(header).getByRole('link', { name: 'Tin tức' });
    expect(news).toHaveAttribute('href', 'https://kid.example/tin-tuc');
    expect(news).toHaveAttribute('target', '_blank');
    expect(within(header).getByRole('link', { name: 'Hỗ trợ' })).toHaveAttribute('href', 'https://kid.example/ho-tro');
    expect(within(header).getByRole('link', { name: 'Tải game' })).toHaveAttribute(
      'href',
      'https://kid.example/tai-game',
    );
  });

  it('the user menu greets the user and logs out to /login', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { events } = renderApp('/security', { user: true });

    await events.click(await screen.findByRole('button', { name: /player01/ }));
    const menu = await screen.findByRole('menu');
    expect(menu).toHaveTextContent('Xin chào,');
    expect(menu).toHaveTextContent('player01');
    expect(within(menu).getByRole('menuitem', { name: 'Tải game' })).toHaveAttribute(
      'href',
      'https://kid.example/tai-game',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Cài đặt' })).toHaveAttribute('href', '/');

    await events.click(within(menu).getByRole('menuitem', { name: 'Đăng xuất' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(db.requests.filter((r) => r !== 'GET /api/me')).toEqual([
      'GET /api/auth/csrf-cookie',
      'POST /api/auth/logout',
    ]);
    expect(db.signedIn).toBe(false);
  });

  it('shows the signed-in user and, for a pay partner, the verified tick', async () => {
    const { events } = renderApp('/', { user: buildUser({ username: 'vip_player', isPayPartner: true }) });
    const header = await screen.findByRole('banner');
    const trigger = within(header).getByRole('button', { name: /vip_player/ });
    const tick = within(trigger).getByRole('img', { name: 'Đối tác nạp của Kid' });
    expect(tick).toHaveAttribute('title', 'Đối tác nạp của Kid');

    await events.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(menu).toHaveTextContent('vip_player');
    expect(within(menu).getByRole('img', { name: 'Đối tác nạp của Kid' })).toBeInTheDocument();
  });

  it('shows no tick for a player who is not a pay partner', async () => {
    renderApp('/', { user: buildUser({ username: 'plain_player', isPayPartner: false }) });
    const header = await screen.findByRole('banner');
    expect(within(header).getByRole('button', { name: /plain_player/ })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Đối tác nạp của Kid' })).toBeNull();
  });

  it('shows the KP balance in the header, leading to the top-up area', async () => {
    const { events, router } = renderApp('/', { user: buildUser({ credit: 1_234_500 }) });
    const header = await screen.findByRole('banner');
    const balance = within(header).getByRole('link', { name: 'Số dư: 1,234,500 KP' });
    expect(balance).toHaveTextContent(/^1,234,500 KP$/);
    await events.click(balance);
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment'));
  });

  it('the side navigation logs out too', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { events } = renderApp('/', { user: true });
    const nav = await screen.findByRole('navigation', { name: 'Quản lý tài khoản' });
    await events.click(within(nav).getByRole('button', { name: 'Đăng xuất' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
  });
});

describe('colour mode', () => {
  it('is dark by default and remembers a change under its key', async () => {
    const { events } = renderApp('/support');
    await screen.findByRole('heading', { level: 1, name: 'Hỗ trợ' });
    await waitFor(() => expect(document.documentElement).toHaveClass('dark'));

    await events.click(screen.getByRole('button', { name: 'Chuyển chế độ sáng/tối' }));

    await waitFor(() => expect(document.documentElement).toHaveClass('light'));
    expect(localStorage.getItem('chakra-ui-color-mode')).toBe('light');
  });
});
