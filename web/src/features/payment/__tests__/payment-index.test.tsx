import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { buildUser } from '@/testing/data';
import { server } from '@/testing/mocks/server';
import { renderApp, renderComponent, screen, waitFor, within } from '@/testing/test-utils';
import type { User } from '@/types/api-schema';

import { PaymentLayout } from '../components/payment-layout';

const tiles = () => within(screen.getByRole('region', { name: 'Phương thức thanh toán' }));
const dialog = () => screen.getByRole('dialog');
const tierRows = () =>
  within(within(dialog()).getByRole('table'))
    .getAllByRole('row')
    .slice(1);

async function openPartnerDialog(user: User) {
  const rendered = renderApp('/payment', { user });
  await rendered.events.click(await screen.findByTestId('partner-badge'));
  expect(await screen.findByRole('dialog')).toBeInTheDocument();
  return rendered;
}

describe('top-up area', () => {
  it("says 'Đang tải...' until the user has loaded", async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/me', async () => {
        await answered;
        return undefined;
      }),
    );
    renderComponent(<PaymentLayout />, { url: '/payment', user: true });
    expect(await screen.findByText('Đang tải...')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    answer();
    expect(await screen.findByRole('heading', { level: 1, name: 'Nạp thẻ' })).toBeInTheDocument();
    expect(screen.queryByText('Đang tải...')).toBeNull();
  });

  it('shows the heading, the partner badge and the balance above the choice of method', async () => {
    renderApp('/payment', { user: buildUser({ credit: 125000 }) });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Nạp thẻ' });
    expect(heading.parentElement).toContainElement(screen.getByTestId('partner-badge'));
    expect(screen.getByTestId('balance-banner')).toHaveTextContent('Số dư: 125,000 KP');
    expect(screen.getByText('Hãy chọn một phương thức thanh toán để bắt đầu.')).toBeInTheDocument();
  });

  it('says the methods are loading until they arrive', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/payment/methods', async () => {
        await answered;
        return undefined;
      }),
    );
    renderApp('/payment', { user: true });
    expect(await screen.findByText('Đang tải phương thức thanh toán...')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Ngân hàng/ })).toBeNull();
    answer();
    expect(await screen.findByRole('link', { name: /^Ngân hàng/ })).toBeInTheDocument();
    expect(screen.queryByText('Đang tải phương thức thanh toán...')).toBeNull();
  });

  it('offers bank, e-wallet and card tiles with their counts and helpers', async () => {
    renderApp('/payment', { user: true });
    await screen.findByRole('link', { name: /^Ngân hàng/ });
    const links = tiles().getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/payment/bank-transfer',
      '/payment/e-wallet',
      '/payment/card',
    ]);
    expect(links[0]).toHaveTextContent(/^Ngân hàngĐề xuất2 lựa chọn/);
    expect(links[1]).toHaveTextContent(/^Ví điện tửNhanh2 lựa chọn/);
    // Vietnamobile is not taken at the moment: seven brands remain.
    expect(links[2]).toHaveTextContent(/^Thẻ càoCó phí nhà mạng7 lựa chọn/);
    expect(links[2]).toHaveTextContent('bị trừ phí');
  });

  it('counts what the server lists', async () => {
    server.use(
      http.get('/api/payment/methods', () =>
        HttpResponse.json({ bankTransfers: [], eWallets: [], cards: [] }),
      ),
    );
    renderApp('/payment', { user: true });
    const bank = await screen.findByRole('link', { name: /^Ngân hàng/ });
    expect(bank).toHaveTextContent('0 lựa chọn');
  });

  it('goes to a method when its tile is clicked', async () => {
    const { events, router } = renderApp('/payment', { user: true });
    await events.click(await screen.findByRole('link', { name: /^Ví điện tử/ }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Ví điện tử' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/payment/e-wallet');
  });

  it("shows the server's message when the methods cannot be loaded, and loads again on retry", async () => {
    server.use(
      http.get('/api/payment/methods', () => HttpResponse.json({ message: 'Máy chủ đang bảo trì.' }, { status: 503 }), {
        once: true,
      }),
    );
    const { events } = renderApp('/payment', { user: true });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Không tải được phương thức thanh toán');
    expect(alert).toHaveTextContent('Máy chủ đang bảo trì.');
    await events.click(within(alert).getByRole('button', { name: 'Thử lại' }));
    expect(await screen.findByRole('link', { name: /^Ngân hàng/ })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});

describe('partner dialog', () => {
  it('tells a player who is not a partner how to become one', async () => {
    const { events } = await openPartnerDialog(buildUser({ isPayPartner: false, payAmountLast28Days: 5_000_000 }));
    expect(screen.getByTestId('partner-badge')).toHaveTextContent('Trở thành đối tác nạp');
    expect(dialog()).toHaveAccessibleName('Chương trình đối tác nạp');
    expect(dialog()).toHaveTextContent(
      'Có một giao dịch nạp từ 20,000,000 VND trở lên trong vòng 28 ngày gần nhất và không vi phạm điều khoản sử dụng.',
    );
    expect(dialog()).toHaveTextContent('Giao dịch kích hoạt được thưởng 15% KP.');
    expect(dialog()).not.toHaveTextContent('Điều kiện duy trì');
    expect(dialog()).not.toHaveTextContent('5,000,000');
    expect(tierRows().map((row) => row.textContent)).toEqual([
      'Từ 20,000,000 VND15%',
      'Từ 50,000,000 VND20%',
      'Từ 100,000,000 VND25%',
    ]);
    expect(tierRows().filter((row) => row.getAttribute('aria-current'))).toEqual([]);

    await events.click(within(dialog()).getAllByRole('button', { name: 'Đóng' })[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows a partner the 28-day sum, the current tier and how to keep it', async () => {
    await openPartnerDialog(buildUser({ isPayPartner: true, payAmountLast28Days: 55_000_000 }));
    expect(screen.getByTestId('partner-badge')).toHaveTextContent('Đối tác nạp · thưởng 20%');
    expect(dialog()).toHaveAccessibleName('Bạn là đối tác nạp của Kid');
    const facts = within(dialog()).getAllByRole('term').map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
    expect(facts).toEqual(['Tổng nạp 28 ngày gần nhất: 55,000,000 VND', 'Mức thưởng hiện tại: 20%']);
    expect(dialog()).toHaveTextContent(
      'Tổng giá trị nạp trong 28 ngày gần nhất từ 20,000,000 VND trở lên. Khi không còn đạt điều kiện này, tư cách đối tác sẽ tự động bị thu hồi.',
    );
    expect(dialog()).toHaveTextContent('Nạp thêm 45,000,000 VND trong 28 ngày để đạt mức thưởng 25%.');
    expect(dialog()).not.toHaveTextContent('Điều kiện kích hoạt');
    const current = tierRows().filter((row) => row.getAttribute('aria-current'));
    expect(current.map((row) => row.textContent)).toEqual(['Từ 50,000,000 VNDĐang áp dụng20%']);
  });

  it('marks the top tier for a partner past 100,000,000 VND, with no tier left to reach', async () => {
    await openPartnerDialog(buildUser({ isPayPartner: true, payAmountLast28Days: 130_000_000 }));
    expect(screen.getByTestId('partner-badge')).toHaveTextContent('thưởng 25%');
    expect(tierRows().filter((row) => row.getAttribute('aria-current')).map((row) => row.textContent)).toEqual([
      'Từ 100,000,000 VNDĐang áp dụng25%',
    ]);
    expect(dialog()).not.toHaveTextContent('Nạp thêm');
  });
});
