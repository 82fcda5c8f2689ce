import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { buildTransaction } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp, renderComponent, screen, waitFor, within } from '@/testing/test-utils';
import { viewportWidth } from '@/testing/viewport';
import type { Transaction } from '@/types/api-schema';

import { TransactionsScreen } from '../components/transactions-screen';

const HISTORY = '/api/payment/transaction-history';

// The table's tests run at a desktop width; the phone list has its own tests below.
beforeEach(() => viewportWidth(1280));

/** Shows these transactions on the screen and returns its body rows, in order. */
async function showHistory(transactions: Transaction[]) {
  db.transactions = transactions;
  const rendered = renderComponent(<TransactionsScreen />, { url: '/transactions', user: true });
  const table = await screen.findByRole('table', { name: 'Lịch sử giao dịch' });
  const rows = within(table).getAllByRole('row').slice(1);
  return { ...rendered, table, rows };
}

async function showOne(overrides: Partial<Transaction>) {
  const { rows, ...rest } = await showHistory([buildTransaction(overrides)]);
  expect(rows).toHaveLength(1);
  return { ...rest, row: rows[0]! };
}

/** The row's cells in column order. */
const cells = (row: HTMLElement) => within(row).getAllByRole('cell');
/** The lines of the details cell. */
const detailLines = (row: HTMLElement) =>
  Array.from(cells(row)[2]!.querySelectorAll('p')).map((line) => line.textContent);

describe('transaction history', () => {
  it('is a route of the signed-in shell with its title and subtitle', async () => {
    renderApp('/transactions', { user: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeInTheDocument();
    expect(screen.getByText('Hiển thị 10 giao dịch gần đây nhất của bạn.')).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Lịch sử giao dịch' })).toBeInTheDocument();
    expect(db.requests).toContain('GET /api/payment/transaction-history');
  });

  it('links below the latest 10 to the full history', async () => {
    const { events, router } = renderApp('/transactions', { user: true });
    await screen.findByRole('table', { name: 'Lịch sử giao dịch' });
    const link = screen.getByRole('link', { name: 'Xem toàn bộ lịch sử' });
    expect(link).toHaveAttribute('href', '/transactions/all');
    await events.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Toàn bộ lịch sử giao dịch' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/transactions/all');
  });

  it('shows the columns in order and one row per transaction, newest first as sent', async () => {
    const { table, rows } = await showHistory([
      buildTransaction({ type: 'topup.bank-transfer', realValue: 500000 }),
      buildTransaction({ type: 'topup.e-wallet', realValue: 200000 }),
      buildTransaction({ type: 'topup.card', realValue: 100000 }),
    ]);
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Loại', 'Giá trị giao dịch', 'Chi tiết', 'Trạng thái', 'Thời gian']);
    expect(rows.map((row) => cells(row)[1]!.textContent)).toEqual(['500,000 VND', '200,000 VND', '100,000 VND']);
  });

  it('shows the loading text until the history arrives', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get(HISTORY, async () => {
        await released;
        return HttpResponse.json([buildTransaction()]);
      }),
    );
    renderComponent(<TransactionsScreen />, { user: true });

    expect(await screen.findByText('Đang tải lịch sử giao dịch...')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryByText('Đang tải lịch sử giao dịch...')).not.toBeInTheDocument();
  });

  it('says there is no transaction yet when the list is empty', async () => {
    db.transactions = [];
    renderComponent(<TransactionsScreen />, { user: true });
    expect(await screen.findByText('Hiện bạn chưa có giao dịch nào.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("shows the server's message and loads again on retry", async () => {
    server.use(
      http.get(HISTORY, () => HttpResponse.json({ message: 'Hệ thống đang bảo trì.' }, { status: 503 }), {
        once: true,
      }),
    );
    const { events } = renderComponent(<TransactionsScreen />, { user: true });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Không tải được lịch sử giao dịch');
    expect(alert).toHaveTextContent('Hệ thống đang bảo trì.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    await events.click(within(alert).getByRole('button', { name: 'Thử lại' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the transport message when the server cannot be reached', async () => {
    server.use(http.get(HISTORY, () => HttpResponse.error()));
    renderComponent(<TransactionsScreen />, { user: true });
    expect(await screen.findByRole('alert')).toHaveTextContent('Network Error');
  });

  it('shows the time of the last update as dd/MM/yyyy HH:mm in local time', async () => {
    const { row } = await showOne({ updatedAt: new Date(2026, 10, 2, 9, 5).toISOString() });
    expect(cells(row)[4]).toHaveTextContent(/^02\/11\/2026 09:05$/);
  });

  it('leaves the time empty when the server has none', async () => {
    const { row } = await showOne({ updatedAt: null });
    expect(cells(row)[4]).toBeEmptyDOMElement();
    expect(cells(row)[0]).toHaveTextContent(/^Nạp KP$/);
  });
});

describe('credit payment rows', () => {
  const pay = (metadata: NonNullable<Transaction['payload']['metadata']>, extra: Partial<Transaction> = {}) =>
    showOne({ type: 'credit.pay', currency: 'KP', realValue: 20000, payload: { metadata }, ...extra });

  it('read Nạp {game} with the coins and the coin bonus, and the KP spent', async () => {
    const { row } = await pay({
      coin: 2000,
      coinBonus: 200,
      productCode: 'jxsj2',
      productName: 'Kiếm Thế 2',
      coinName: 'Vàng',
    });
    expect(cells(row)[0]).toHaveTextContent(/^Nạp Kiếm Thế 2$/);
    expect(cells(row)[1]).toHaveTextContent(/^-20,000 KP$/);
    expect(detailLines(row)).toEqual(['+2,000 Vàng', '+200 Vàng thưởng']);
  });

  it('leave the bonus line out when the bonus is 0', async () => {
    const { row } = await pay({
      coin: 1500,
      coinBonus: 0,
      productCode: 'fsonline',
      productName: 'Phong Sơn',
      coinName: 'Xu',
    });
    expect(detailLines(row)).toEqual(['+1,500 Xu']);
    expect(within(row).queryByText(/thưởng/)).not.toBeInTheDocument();
  });

  it.each([
    ['fsonline', 'Xu'],
    ['jxonline2', 'Xu'],
    ['jxsj2', 'Vàng'],
  ])('fall back to the product code and its known coin name (%s: %s)', async (productCode, coinName) => {
    // The server sends an empty name when the payment did not record one.
    const { row } = await pay({ coin: 12000, coinBonus: 1200, productCode, productName: '', coinName: '' });
    expect(cells(row)[0]).toHaveTextContent(new RegExp(`^Nạp ${productCode}$`));
    expect(detailLines(row)).toEqual([`+12,000 ${coinName}`, `+1,200 ${coinName} thưởng`]);
  });

  it('also list their related transactions, such as a refund', async () => {
    const { row } = await pay(
      { coin: 2000, coinBonus: 0, productCode: 'jxsj2', productName: 'Kiếm Thế 2', coinName: 'Vàng' },
      { status: 'failed', relatedTransactions: [{ id: 'r1', type: 'credit.refund', realValue: 20000 }] },
    );
    expect(detailLines(row)).toEqual(['+2,000 Vàng', '+20,000 KP được hoàn trả']);
  });
});

describe('top-up rows', () => {
  it.each([
    ['topup.bank-transfer', 'vietcombank', 'Vietcombank'],
    ['topup.bank-transfer', 'techcombank', 'Techcombank'],
    ['topup.e-wallet', 'momo', 'MoMo'],
    ['topup.e-wallet', 'viettelpay', 'ViettelPay'],
  ])('%s from %s reads Nạp KP, the VND value and the channel %s', async (type, source, name) => {
    const { row } = await showOne({
      type,
      realValue: 1250000,
      payload: { source },
      relatedTransactions: [{ id: 'r1', type: 'credit.recharge', realValue: 1250000 }],
    });
    expect(cells(row)[0]).toHaveTextContent(/^Nạp KP$/);
    expect(cells(row)[1]).toHaveTextContent(/^1,250,000 VND$/);
    expect(detailLines(row)).toEqual([name, '+1,250,000 KP']);
  });

  it.each([
    ['viettel', 'Viettel'],
    ['VIETTEL', 'Viettel'],
    ['vinaphone', 'Vinaphone'],
    ['MOBIFONE', 'Mobifone'],
    ['vietnamobile', 'Vietnamobile'],
    ['zing', 'Zing'],
    ['GATE', 'Gate'],
    ['vtc', 'VTC'],
    ['garena', 'Garena'],
  ])('a card from %s names the provider %s and shows the serial', async (provider, name) => {
    const { row } = await showOne({
      type: 'topup.card',
      realValue: 100000,
      payload: { provider, serial: '10000000000001' },
      relatedTransactions: [{ id: 'r1', type: 'credit.recharge', realValue: 85000 }],
    });
    expect(cells(row)[0]).toHaveTextContent(/^Nạp KP$/);
    expect(cells(row)[1]).toHaveTextContent(/^100,000 VND$/);
    expect(detailLines(row)).toEqual([name, 'Seri: 10000000000001', '+85,000 KP']);
  });

  it('shows an unknown channel code as it came', async () => {
    const { row } = await showOne({ type: 'topup.bank-transfer', payload: { source: 'acb' } });
    expect(detailLines(row)).toEqual(['acb']);
  });

  it('lists every kind of related transaction on its own line, and skips unknown kinds', async () => {
    const { row } = await showOne({
      type: 'topup.card',
      payload: { provider: 'viettel', serial: '10000000000001' },
      relatedTransactions: [
        { id: 'r1', type: 'credit.recharge', realValue: 100000 },
        { id: 'r2', type: 'credit.bonus', realValue: 15000 },
        { id: 'r3', type: 'credit.recall', realValue: 15000 },
        { id: 'r4', type: 'credit.refund', realValue: 5000 },
        { id: 'r5', type: 'credit.mystery', realValue: 7000 },
        { id: 'r6', type: 'constructor', realValue: 8000 },
      ],
    });
    expect(detailLines(row)).toEqual([
      'Viettel',
      'Seri: 10000000000001',
      '+100,000 KP',
      '+15,000 KP thưởng',
      '-15,000 KP bị thu hồi',
      '+5,000 KP được hoàn trả',
    ]);
  });

  it.each([
    ['WRONG_AMOUNT', 'Sai mệnh giá thực'],
    ['NOT_FOUND', 'Thẻ không tồn tại'],
    ['INVALID', 'Thẻ sai'],
  ])('a card refused with %s says %s', async (errorCode, message) => {
    const { row } = await showOne({
      type: 'topup.card',
      status: 'failed',
      payload: { provider: 'vinaphone', serial: '30000000000003', errorCode },
    });
    expect(detailLines(row)).toEqual(['Vinaphone', 'Seri: 30000000000003', message]);
  });

  it('says nothing about an error code it does not know', async () => {
    const { row } = await showOne({
      type: 'topup.card',
      status: 'failed',
      payload: { provider: 'vinaphone', serial: '30000000000003', errorCode: 'PROVIDER_TIMEOUT' },
    });
    expect(detailLines(row)).toEqual(['Vinaphone', 'Seri: 30000000000003']);
    expect(cells(row)[2]).toHaveTextContent(/^VinaphoneSeri: 30000000000003$/);
  });
});

describe('giftcode rows', () => {
  const giftcode = (extra: Partial<Transaction> = {}) =>
    showOne({
      type: 'giftcode',
      currency: 'KP',
      realValue: 1000,
      payload: { campaign: 'Chào mừng tân thủ' },
      relatedTransactions: [],
      ...extra,
    });

  it('read Nhận quà giftcode, the KP received and the campaign', async () => {
    const { row } = await giftcode();
    expect(cells(row)[0]).toHaveTextContent(/^Nhận quà giftcode$/);
    expect(cells(row)[1]).toHaveTextContent(/^\+1,000 KP$/);
    expect(detailLines(row)).toEqual(['Chương trình: Chào mừng tân thủ']);
    expect(cells(row)[3]).toHaveTextContent(/^Thành công$/);
  });

  it('show large grants with thousands separators', async () => {
    const { row } = await giftcode({ realValue: 1250000 });
    expect(cells(row)[1]).toHaveTextContent(/^\+1,250,000 KP$/);
  });

  it('have no detail line when the campaign is not named', async () => {
    const { row } = await giftcode({ payload: {} });
    expect(cells(row)[0]).toHaveTextContent(/^Nhận quà giftcode$/);
    expect(cells(row)[2]).toBeEmptyDOMElement();
  });

  it('sit among the latest 10 with the other rows unchanged', async () => {
    const { rows } = await showHistory([
      buildTransaction({ type: 'giftcode', currency: 'KP', realValue: 1000, payload: { campaign: 'Chào mừng tân thủ' } }),
      buildTransaction({
        type: 'credit.pay',
        currency: 'KP',
        realValue: 20000,
        payload: {
          metadata: { coin: 2000, coinBonus: 0, productCode: 'jxsj2', productName: 'Kiếm Thế 2', coinName: 'Vàng' },
        },
      }),
      buildTransaction({ type: 'topup.bank-transfer', realValue: 500000, payload: { source: 'vietcombank' } }),
    ]);
    expect(rows.map((row) => cells(row).slice(0, 3).map((cell) => cell.textContent))).toEqual([
      ['Nhận quà giftcode', '+1,000 KP', 'Chương trình: Chào mừng tân thủ'],
      ['Nạp Kiếm Thế 2', '-20,000 KP', '+2,000 Vàng'],
      ['Nạp KP', '500,000 VND', 'Vietcombank'],
    ]);
  });
});

describe('other rows', () => {
  it('an unknown type reads Không rõ', async () => {
    const { row } = await showOne({ type: 'credit.adjustment', realValue: 3000, currency: 'KP', payload: {} });
    expect(cells(row)[0]).toHaveTextContent(/^Không rõ$/);
    expect(cells(row)[1]).toHaveTextContent(/^3,000 KP$/);
  });

  it.each([
    ['pending', 'Đang xử lý'],
    ['success', 'Thành công'],
    ['failed', 'Thất bại'],
    ['unknown', 'Chưa rõ'],
    // A status added to the server after this portal.
    ['refunding', 'Chưa rõ'],
  ])('status %s reads %s', async (status, label) => {
    const { row } = await showOne({ status: status as Transaction['status'] });
    expect(cells(row)[3]).toHaveTextContent(new RegExp(`^${label}$`));
  });

  it('shows the transaction id in a tooltip on keyboard focus of the type', async () => {
    const id = '0193f1c2-7a1b-7000-8000-00000000abcd';
    const { row, events } = await showOne({ id });
    const trigger = within(row).getByText('Nạp KP');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();

    await events.tab();
    expect(trigger).toHaveFocus();
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent(`Mã giao dịch: ${id}`);
    expect(trigger).toHaveAttribute('aria-describedby', tooltip.id);

    await events.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });
});

describe('on a phone', () => {
  beforeEach(() => viewportWidth(390));

  /** Shows these transactions below the `md` breakpoint and returns the list's items. */
  async function showList(transactions: Transaction[]) {
    db.transactions = transactions;
    const rendered = renderComponent(<TransactionsScreen />, { url: '/transactions', user: true });
    const list = await screen.findByRole('list', { name: 'Lịch sử giao dịch' });
    return { ...rendered, list, items: within(list).getAllByRole('listitem') };
  }

  /** The item's labelled fields, as label → text. */
  const fields = (item: HTMLElement) =>
    Object.fromEntries(
      Array.from(item.querySelectorAll('dt')).map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );

  it('shows one stacked item per transaction instead of the table, with the status and the time', async () => {
    const { items } = await showList([
      buildTransaction({
        type: 'topup.card',
        status: 'pending',
        realValue: 50000,
        updatedAt: new Date(2026, 10, 20, 17, 0).toISOString(),
        payload: { provider: 'mobifone', serial: '200000000000002' },
      }),
      buildTransaction({ type: 'topup.bank-transfer', status: 'failed', realValue: 500000 }),
    ]);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(items).toHaveLength(2);

    const [card, transfer] = items as [HTMLElement, HTMLElement];
    expect(within(card).getByText('Nạp KP')).toBeInTheDocument();
    expect(within(card).getByText('Đang xử lý')).toBeInTheDocument();
    expect(fields(card)).toEqual({
      'Giá trị giao dịch': '50,000 VND',
      'Chi tiết': 'MobifoneSeri: 200000000000002',
      'Thời gian': '20/11/2026 17:00',
    });
    expect(within(transfer).getByText('Thất bại')).toBeInTheDocument();
  });

  it('shows a giftcode row with the KP received and the campaign', async () => {
    const { items } = await showList([
      buildTransaction({
        type: 'giftcode',
        currency: 'KP',
        realValue: 1000,
        updatedAt: new Date(2026, 10, 22, 8, 30).toISOString(),
        payload: { campaign: 'Chào mừng tân thủ' },
      }),
    ]);
    expect(within(items[0]!).getByText('Nhận quà giftcode')).toBeInTheDocument();
    expect(within(items[0]!).getByText('Thành công')).toBeInTheDocument();
    expect(fields(items[0]!)).toEqual({
      'Giá trị giao dịch': '+1,000 KP',
      'Chi tiết': 'Chương trình: Chào mừng tân thủ',
      'Thời gian': '22/11/2026 08:30',
    });
  });

  it('leaves out the details and the time when there are none', async () => {
    const { items } = await showList([
      buildTransaction({ type: 'credit.adjustment', realValue: 3000, currency: 'KP', payload: {}, updatedAt: null }),
    ]);
    expect(within(items[0]!).getByText('Không rõ')).toBeInTheDocument();
    expect(fields(items[0]!)).toEqual({ 'Giá trị giao dịch': '3,000 KP' });
  });

  it('keeps the transaction id in a tooltip on keyboard focus of the type', async () => {
    const id = '0193f1c2-7a1b-7000-8000-00000000abcd';
    const { items, events } = await showList([buildTransaction({ id })]);
    const trigger = within(items[0]!).getByText('Nạp KP');

    await events.tab();
    expect(trigger).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(`Mã giao dịch: ${id}`);
  });
});
