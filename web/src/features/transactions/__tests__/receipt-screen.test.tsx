import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { buildTransaction } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { Transaction } from '@/types/api-schema';

const ID = '0193f1c2-7a1b-7000-8000-00000000abcd';

/** Opens the receipt of `transaction` (the player's only one) and returns its labelled facts. */
async function openReceipt(transaction: Transaction) {
  db.transactions = [transaction];
  const rendered = renderApp(`/transactions/${transaction.id}`, { user: true });
  expect(await screen.findByRole('heading', { level: 1, name: 'Biên lai giao dịch' })).toBeInTheDocument();
  await screen.findByText('Mã giao dịch');
  const facts = Object.fromEntries(
    Array.from(screen.getByRole('main').querySelectorAll('dt')).map((term) => [
      term.textContent,
      term.nextElementSibling as HTMLElement,
    ]),
  );
  return { ...rendered, facts };
}

describe('receipt', () => {
  it('shows what the transaction was, its value, status, times and details', async () => {
    const { facts } = await openReceipt(
      buildTransaction({
        id: ID,
        type: 'topup.card',
        status: 'success',
        realValue: 100000,
        createdAt: new Date(2026, 10, 21, 9, 58).toISOString(),
        updatedAt: new Date(2026, 10, 21, 10, 0).toISOString(),
        payload: { provider: 'viettel', serial: '10000000000001' },
        relatedTransactions: [
          { id: 'r1', type: 'credit.recharge', realValue: 85000 },
          { id: 'r2', type: 'credit.bonus', realValue: 12750 },
        ],
      }),
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Nạp KP' })).toBeInTheDocument();
    expect(Object.keys(facts)).toEqual([
      'Mã giao dịch',
      'Giá trị giao dịch',
      'Trạng thái',
      'Thời gian tạo',
      'Cập nhật lần cuối',
      'Chi tiết',
    ]);
    expect(facts['Mã giao dịch']).toHaveTextContent(ID);
    expect(facts['Giá trị giao dịch']).toHaveTextContent(/^100,000 VND$/);
    expect(facts['Trạng thái']).toHaveTextContent(/^Thành công$/);
    expect(facts['Thời gian tạo']).toHaveTextContent(/^21\/11\/2026 09:58$/);
    expect(facts['Cập nhật lần cuối']).toHaveTextContent(/^21\/11\/2026 10:00$/);
    const lines = Array.from(facts['Chi tiết']!.querySelectorAll('p')).map((line) => line.textContent);
    expect(lines).toEqual(['Viettel', 'Seri: 10000000000001', '+85,000 KP', '+12,750 KP thưởng']);
    expect(db.requests).toContain(`GET /api/transactions/${ID}`);
  });

  it("shows a giftcode's KP and campaign", async () => {
    const { facts } = await openReceipt(
      buildTransaction({
        type: 'giftcode',
        currency: 'KP',
        realValue: 1000,
        payload: { campaign: 'Chào mừng tân thủ' },
        relatedTransactions: [],
      }),
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Nhận quà giftcode' })).toBeInTheDocument();
    expect(facts['Giá trị giao dịch']).toHaveTextContent(/^\+1,000 KP$/);
    expect(facts['Chi tiết']).toHaveTextContent(/^Chương trình: Chào mừng tân thủ$/);
  });

  it("shows a game payment's coins and bonus, and a refused card's reason", async () => {
    const { facts, unmount } = await openReceipt(
      buildTransaction({
        type: 'credit.pay',
        currency: 'KP',
        realValue: 20000,
        payload: {
          metadata: { coin: 2000, coinBonus: 200, productCode: 'jxsj2', productName: 'Kiếm Thế 2', coinName: 'Vàng' },
        },
        relatedTransactions: [{ id: 'r1', type: 'credit.refund', realValue: 20000 }],
      }),
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Nạp Kiếm Thế 2' })).toBeInTheDocument();
    expect(facts['Giá trị giao dịch']).toHaveTextContent(/^-20,000 KP$/);
    expect(facts['Chi tiết']).toHaveTextContent(/^\+2,000 Vàng\+200 Vàng thưởng\+20,000 KP được hoàn trả$/);
    unmount();

    const refused = await openReceipt(
      buildTransaction({
        type: 'topup.card',
        status: 'failed',
        payload: { provider: 'vinaphone', serial: '30000000000003', errorCode: 'NOT_FOUND' },
      }),
    );
    expect(refused.facts['Trạng thái']).toHaveTextContent(/^Thất bại$/);
    expect(refused.facts['Chi tiết']).toHaveTextContent(/^VinaphoneSeri: 30000000000003Thẻ không tồn tại$/);
  });

  it('says there are no details when there are none', async () => {
    const { facts } = await openReceipt(buildTransaction({ type: 'credit.adjustment', payload: {}, currency: 'KP' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Không rõ' })).toBeInTheDocument();
    expect(facts['Chi tiết']).toHaveTextContent(/^Không có$/);
  });

  it('copies the transaction id', async () => {
    const { events } = await openReceipt(buildTransaction({ id: ID }));
    await events.click(screen.getByRole('button', { name: 'Sao chép mã giao dịch' }));
    expect(await screen.findByText('Đã sao chép')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(ID);
  });

  it('prints with the browser', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const { events } = await openReceipt(buildTransaction());
    await events.click(screen.getByRole('button', { name: 'In biên lai' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('links back to the full history when opened directly', async () => {
    const { events, router } = await openReceipt(buildTransaction());
    await events.click(screen.getByRole('link', { name: 'Quay lại lịch sử giao dịch' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Toàn bộ lịch sử giao dịch' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/transactions/all');
  });

  it('says a transaction that is none of the player’s was not found, with the way back', async () => {
    renderApp('/transactions/0193f1c2-0000-7000-8000-ffffffffffff', { user: true });
    const card = within(await screen.findByRole('main'));
    expect(await card.findByRole('heading', { level: 2, name: 'Không tìm thấy giao dịch.' })).toBeInTheDocument();
    expect(card.getByText('Giao dịch này không tồn tại hoặc không thuộc tài khoản của bạn.')).toBeInTheDocument();
    const links = card.getAllByRole('link', { name: 'Quay lại lịch sử giao dịch' });
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/transactions/all', '/transactions/all']);
    expect(card.queryByRole('button', { name: 'In biên lai' })).toBeNull();
  });

  it('shows other failures with a retry', async () => {
    const transaction = buildTransaction({ id: ID });
    db.transactions = [transaction];
    server.use(
      http.get(`/api/transactions/${ID}`, () => HttpResponse.json({ message: 'Hệ thống đang bận.' }, { status: 503 }), {
        once: true,
      }),
    );
    const { events } = renderApp(`/transactions/${ID}`, { user: true });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Không tải được biên lai');
    expect(alert).toHaveTextContent('Hệ thống đang bận.');
    await events.click(within(alert).getByRole('button', { name: 'Thử lại' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.getByText(ID)).toBeInTheDocument();
  });
});
