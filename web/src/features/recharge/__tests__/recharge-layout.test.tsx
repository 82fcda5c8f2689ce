import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { buildUser } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { rechargeDb } from '@/testing/mocks/recharge-handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, renderComponent, screen, waitFor, within } from '@/testing/test-utils';

import { RechargeLayout } from '../components/recharge-layout';

const gameList = () => screen.getByRole('navigation', { name: 'Danh sách game' });

describe('/recharge: the game list', () => {
  it('shows the heading, the KP balance, the games and the prompt to choose one', async () => {
    renderApp('/recharge', { user: buildUser({ credit: 150000 }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Nạp game' })).toBeInTheDocument();
    expect(await screen.findByTestId('credit-bar')).toHaveTextContent('Số dư: 150,000 KP');
    await screen.findByRole('link', { name: 'Phong Thần Online' });

    const links = within(gameList()).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Phong Thần Online', '/recharge/fsonline'],
      ['Võ Lâm Truyền Kỳ 2', '/recharge/jxonline2'],
      ['Kiếm Thế 2', '/recharge/jxsj2'],
    ]);
    expect(links.map((link) => link.querySelector('img')?.getAttribute('src'))).toEqual([
      '/images/products/fsonline.svg',
      '/images/products/jxonline2.svg',
      '/images/products/jxsj2.svg',
    ]);
    expect(links.some((link) => link.hasAttribute('aria-current'))).toBe(false);
    expect(screen.getByText('Hãy chọn một sản phẩm bạn muốn thực hiện lệnh nạp.')).toBeInTheDocument();
  });

  it('opens a game on click and marks it as the current one', async () => {
    const { events, router } = renderApp('/recharge', { user: buildUser({ credit: 150000 }) });
    await events.click(await screen.findByRole('link', { name: 'Kiếm Thế 2' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'Kiếm Thế 2' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/recharge/jxsj2');
    expect(within(gameList()).getByRole('link', { name: 'Kiếm Thế 2' })).toHaveAttribute('aria-current', 'page');
    expect(within(gameList()).getByRole('link', { name: 'Phong Thần Online' })).not.toHaveAttribute('aria-current');
    expect(screen.queryByText('Hãy chọn một sản phẩm bạn muốn thực hiện lệnh nạp.')).not.toBeInTheDocument();
  });

  it('lists whatever games the server sells', async () => {
    rechargeDb.products = [{ code: 'newgame', name: 'Game Mới', logoImg: '/images/products/newgame.svg' }];
    renderApp('/recharge', { user: true });
    expect(await screen.findByRole('link', { name: 'Game Mới' })).toHaveAttribute('href', '/recharge/newgame');
  });

  it('says when the games could not be loaded, and tries again', async () => {
    let fail = true;
    server.use(
      http.get('/api/product', () =>
        fail ? HttpResponse.json({ message: 'Dịch vụ tạm thời gián đoạn.' }, { status: 503 }) : undefined,
      ),
    );
    const { events } = renderApp('/recharge', { user: true });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Không tải được danh sách game');
    expect(alert).toHaveTextContent('Dịch vụ tạm thời gián đoạn.');

    fail = false;
    await events.click(within(alert).getByRole('button', { name: 'Thử lại' }));
    expect(await screen.findByRole('link', { name: 'Kiếm Thế 2' })).toBeInTheDocument();
  });

  it('says the connection was lost when the user cannot be loaded', async () => {
    let fail = true;
    server.use(http.get('/api/me', () => (fail ? new HttpResponse(null, { status: 500 }) : undefined)));
    const { events } = renderComponent(<RechargeLayout />, { url: '/recharge', user: true });

    expect(await screen.findByText('Kết nối đến máy chủ bị gián đoạn, xin thử lại sau')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Nạp game' })).toBeInTheDocument();
    expect(screen.queryByTestId('credit-bar')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Danh sách game' })).not.toBeInTheDocument();
    expect(db.requests).not.toContain('GET /api/product');

    fail = false;
    await events.click(screen.getByRole('button', { name: 'Thử lại' }));
    await waitFor(() => expect(screen.queryByText('Kết nối đến máy chủ bị gián đoạn, xin thử lại sau')).toBeNull());
    expect(await screen.findByRole('link', { name: 'Phong Thần Online' })).toBeInTheDocument();
  });

  it('says the connection was lost on /recharge when GET /me fails', async () => {
    server.use(http.get('/api/me', () => HttpResponse.error()));
    renderApp('/recharge', { user: true });
    expect(await screen.findByText('Kết nối đến máy chủ bị gián đoạn, xin thử lại sau')).toBeInTheDocument();
  });
});
