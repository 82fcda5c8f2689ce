import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { buildTransaction } from '@/testing/data';
import { validationError } from '@/testing/mocks/common';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { HISTORY_TYPE_INVALID } from '@/testing/mocks/transactions-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { viewportWidth } from '@/testing/viewport';
import type { Transaction } from '@/types/api-schema';

const HISTORY = '/api/transactions';

beforeEach(() => viewportWidth(1280));

/** `count` card top-ups, newest first, each created a minute before the one above it. */
function cards(count: number, overrides: Partial<Transaction> = {}): Transaction[] {
  const newest = Date.UTC(2026, 10, 22, 3, 0);
  return Array.from({ length: count }, (_, index) =>
    buildTransaction({
      type: 'topup.card',
      realValue: 10000 * (index + 1),
      createdAt: new Date(newest - index * 60_000).toISOString(),
      payload: { provider: 'viettel', serial: `1000000000${String(index).padStart(4, '0')}` },
      ...overrides,
    }),
  );
}

/** Records the query string of every GET /api/transactions, leaving the answer to the fake server. */
function captureSearches() {
  const searches: URLSearchParams[] = [];
  server.use(
    http.get(HISTORY, ({ request }) => {
      searches.push(new URL(request.url).searchParams);
      return undefined;
    }),
  );
  return searches;
}

async function openHistory(url = '/transactions/all') {
  const rendered = renderApp(url, { user: true });
  await screen.findByRole('heading', { level: 1, name: 'Toàn bộ lịch sử giao dịch' });
  return rendered;
}

const table = () => screen.findByRole('table', { name: 'Toàn bộ lịch sử giao dịch' });
const bodyRows = async () => within(await table()).getAllByRole('row').slice(1);
const filter = (name: string) => screen.getByRole('combobox', { name });
/** A day field: a text box until focused or filled, then a date input (no textbox role). */
const day = (name: string) => screen.getByLabelText<HTMLInputElement>(name);
const csvLink = () => screen.getByRole('link', { name: 'Tải CSV' });

describe('full history: paging', () => {
  it('shows the first page and loads the next ones with the cursor the server gave', async () => {
    db.transactions = cards(45);
    const searches = captureSearches();
    const { events } = await openHistory();

    expect(await bodyRows()).toHaveLength(20);
    expect(screen.getByText('Đang hiển thị 20 giao dịch.')).toBeInTheDocument();
    expect(searches).toHaveLength(1);
    expect(Object.fromEntries(searches[0]!)).toEqual({ limit: '20' });

    await events.click(screen.getByRole('button', { name: 'Xem thêm' }));
    await waitFor(async () => expect(await bodyRows()).toHaveLength(40));
    expect(searches).toHaveLength(2);
    // Keyset: the second page starts after the first page's last transaction.
    expect(searches[1]!.get('limit')).toBe('20');
    expect(searches[1]!.get('cursor')).toBe(btoa(`after:${db.transactions[19]!.id}`));

    await events.click(screen.getByRole('button', { name: 'Xem thêm' }));
    await waitFor(async () => expect(await bodyRows()).toHaveLength(45));
    expect(screen.getByText('Đã hiển thị tất cả 45 giao dịch.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Xem thêm' })).toBeNull();
    // Every transaction once, newest first.
    const values = (await bodyRows()).map((row) => within(row).getAllByRole('cell')[1]!.textContent);
    expect(values).toEqual(db.transactions.map((item) => `${item.realValue.toLocaleString('en-US')} VND`));
  });

  it('says when the next page failed, keeps the rows and tries again', async () => {
    db.transactions = cards(25);
    const { events } = await openHistory();
    expect(await bodyRows()).toHaveLength(20);

    server.use(
      http.get(HISTORY, () => HttpResponse.json({ message: 'Hệ thống đang bận.' }, { status: 503 }), { once: true }),
    );
    await events.click(screen.getByRole('button', { name: 'Xem thêm' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Không tải thêm được giao dịch');
    expect(alert).toHaveTextContent('Hệ thống đang bận.');
    expect(await bodyRows()).toHaveLength(20);

    await events.click(within(alert).getByRole('button', { name: 'Thử lại' }));
    await waitFor(async () => expect(await bodyRows()).toHaveLength(25));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the rows with the same texts as the latest 10, each linking to its receipt', async () => {
    const pay = buildTransaction({
      type: 'credit.pay',
      currency: 'KP',
      realValue: 20000,
      payload: {
        metadata: { coin: 2000, coinBonus: 200, productCode: 'jxsj2', productName: 'Kiếm Thế 2', coinName: 'Vàng' },
      },
    });
    const card = buildTransaction({
      type: 'topup.card',
      status: 'failed',
      realValue: 20000,
      payload: { provider: 'vinaphone', serial: '30000000000003', errorCode: 'NOT_FOUND' },
    });
    db.transactions = [pay, card];
    await openHistory();

    const headers = within(await table())
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Loại', 'Giá trị giao dịch', 'Chi tiết', 'Trạng thái', 'Thời gian', 'Biên lai']);
    const [payRow, cardRow] = (await bodyRows()) as [HTMLElement, HTMLElement];
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells(payRow).slice(0, 4)).toEqual([
      'Nạp Kiếm Thế 2',
      '-20,000 KP',
      '+2,000 Vàng+200 Vàng thưởng',
      'Thành công',
    ]);
    expect(cells(cardRow).slice(0, 4)).toEqual([
      'Nạp KP',
      '20,000 VND',
      'VinaphoneSeri: 30000000000003Thẻ không tồn tại',
      'Thất bại',
    ]);
    expect(within(payRow).getByRole('link', { name: 'Xem biên lai' })).toHaveAttribute(
      'href',
      `/transactions/${pay.id}`,
    );
    expect(within(cardRow).getByRole('link', { name: 'Xem biên lai' })).toHaveAttribute(
      'href',
      `/transactions/${card.id}`,
    );
  });

  it('says there is no transaction yet, or none that matches the filters', async () => {
    db.transactions = [];
    const { router } = await openHistory();
    expect(await screen.findByText('Hiện bạn chưa có giao dịch nào.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();

    db.transactions = cards(3);
    await router.navigate('/transactions/all?status=pending');
    expect(await screen.findByText('Không có giao dịch nào khớp bộ lọc.')).toBeInTheDocument();
  });

  it('stacks the rows on a phone, each with its receipt link', async () => {
    viewportWidth(390);
    db.transactions = cards(2);
    await openHistory();
    const list = await screen.findByRole('list', { name: 'Toàn bộ lịch sử giao dịch' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(items[0]!).getByRole('link', { name: 'Xem biên lai' })).toHaveAttribute(
      'href',
      `/transactions/${db.transactions[0]!.id}`,
    );
  });
});

describe('full history: filters', () => {
  function mixed(): Transaction[] {
    return [
      ...cards(2, { status: 'failed', createdAt: '2026-11-20T03:00:00Z' }),
      ...cards(3, { status: 'success', createdAt: '2026-11-10T03:00:00Z' }),
      buildTransaction({ type: 'topup.bank-transfer', status: 'failed', createdAt: '2026-11-20T03:00:00Z' }),
      // 23:30 UTC on 31 October is 1 November in Vietnam.
      ...cards(1, { status: 'failed', createdAt: '2026-10-31T23:30:00Z' }),
      ...cards(1, { status: 'failed', createdAt: '2026-10-31T16:30:00Z' }),
    ];
  }

  it('puts the filters in the query string, asks the server with them, and Back undoes them', async () => {
    db.transactions = mixed();
    const searches = captureSearches();
    const { events, router } = await openHistory();
    expect(await bodyRows()).toHaveLength(8);

    await events.selectOptions(filter('Loại giao dịch'), 'Nạp KP bằng thẻ cào');
    await events.selectOptions(filter('Trạng thái'), 'Thất bại');
    await events.type(day('Từ ngày'), '2026-11-01');
    await events.type(day('Đến ngày'), '2026-11-30');
    await events.click(screen.getByRole('button', { name: 'Lọc' }));

    await waitFor(() =>
      expect(router.state.location.search).toBe('?type=topup.card&status=failed&from=2026-11-01&to=2026-11-30'),
    );
    await waitFor(async () => expect(await bodyRows()).toHaveLength(3));
    expect(Object.fromEntries(searches.at(-1)!)).toEqual({
      type: 'topup.card',
      status: 'failed',
      from: '2026-11-01',
      to: '2026-11-30',
      limit: '20',
    });

    // Back: the page before, with no filter, in the list and in the fields.
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(async () => expect(await bodyRows()).toHaveLength(8));
    expect(filter('Loại giao dịch')).toHaveValue('');
    expect(filter('Trạng thái')).toHaveValue('');
    expect(day('Từ ngày')).toHaveValue('');
  });

  it("lists the types in order, 'Điều chỉnh KP' last, and filters giftcode rows", async () => {
    db.transactions = [
      buildTransaction({
        type: 'giftcode',
        currency: 'KP',
        realValue: 1000,
        payload: { campaign: 'Chào mừng tân thủ' },
        createdAt: '2026-11-21T03:00:00Z',
      }),
      ...mixed(),
    ];
    const searches = captureSearches();
    const { events, router } = await openHistory();
    expect(await bodyRows()).toHaveLength(9);
    const options = within(filter('Loại giao dịch'))
      .getAllByRole('option')
      .map((option) => [(option as HTMLOptionElement).value, option.textContent]);
    expect(options).toEqual([
      ['', 'Tất cả loại'],
      ['topup.bank-transfer', 'Nạp KP qua ngân hàng'],
      ['topup.e-wallet', 'Nạp KP qua ví điện tử'],
      ['topup.card', 'Nạp KP bằng thẻ cào'],
      ['credit.pay', 'Nạp game'],
      ['giftcode', 'Nhận quà giftcode'],
      ['adjustment', 'Điều chỉnh KP'],
    ]);

    await events.selectOptions(filter('Loại giao dịch'), 'Nhận quà giftcode');
    await events.click(screen.getByRole('button', { name: 'Lọc' }));
    await waitFor(() => expect(router.state.location.search).toBe('?type=giftcode'));
    await waitFor(async () => expect(await bodyRows()).toHaveLength(1));
    expect(searches.at(-1)!.get('type')).toBe('giftcode');
    const cells = within((await bodyRows())[0]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 4)).toEqual(['Nhận quà giftcode', '+1,000 KP', 'Chương trình: Chào mừng tân thủ', 'Thành công']);
    expect(csvLink()).toHaveAttribute('href', '/api/transactions/export.csv?type=giftcode');
  });

  it("shows support's KP adjustments: a credit and a clawback, each with its reason", async () => {
    db.transactions = [
      buildTransaction({
        type: 'adjustment',
        currency: 'KP',
        realValue: 30000,
        payload: { direction: 'clawback', reason: 'Thu hồi quà trùng' },
        createdAt: '2026-11-22T03:00:00Z',
      }),
      buildTransaction({
        type: 'adjustment',
        currency: 'KP',
        realValue: 50000,
        payload: { direction: 'credit', reason: 'Bồi hoàn sự cố nạp' },
        createdAt: '2026-11-21T03:00:00Z',
      }),
    ];
    await openHistory();
    const rows = await bodyRows();
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 3)
        .map((cell) => cell.textContent),
    );
    expect(cells).toEqual([
      ['Thu hồi KP', '-30,000 KP', 'Lý do: Thu hồi quà trùng'],
      ['Điều chỉnh cộng KP', '+50,000 KP', 'Lý do: Bồi hoàn sự cố nạp'],
    ]);
  });

  it('opens a shared link with its filters in the fields and the list', async () => {
    db.transactions = mixed();
    await openHistory('/transactions/all?type=topup.bank-transfer&status=failed');
    expect(await bodyRows()).toHaveLength(1);
    expect(filter('Loại giao dịch')).toHaveValue('topup.bank-transfer');
    expect(filter('Trạng thái')).toHaveValue('failed');
  });

  it('clears every filter with Xóa bộ lọc', async () => {
    db.transactions = mixed();
    const { events, router } = await openHistory('/transactions/all?status=success&from=2026-11-01');
    expect(await bodyRows()).toHaveLength(3);
    await events.click(screen.getByRole('button', { name: 'Xóa bộ lọc' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(async () => expect(await bodyRows()).toHaveLength(8));
    expect(screen.queryByRole('button', { name: 'Xóa bộ lọc' })).toBeNull();
  });

  it('does not ask for an end day before the start day', async () => {
    const searches = captureSearches();
    const { events, router } = await openHistory();
    await table();
    await events.type(day('Từ ngày'), '2026-11-30');
    await events.type(day('Đến ngày'), '2026-11-01');
    await events.click(screen.getByRole('button', { name: 'Lọc' }));
    expect(await screen.findByText('Ngày kết thúc không được trước ngày bắt đầu.')).toBeInTheDocument();
    expect(day('Đến ngày')).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.search).toBe('');
    expect(searches).toHaveLength(1);
  });

  it("shows the server's 422 messages under the filters they are about", async () => {
    await openHistory('/transactions/all?type=credit.bonus');
    expect(await screen.findByText(HISTORY_TYPE_INVALID)).toBeInTheDocument();
    expect(filter('Loại giao dịch')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Hãy sửa bộ lọc được đánh dấu rồi bấm Lọc.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();

    server.use(
      http.get(HISTORY, () =>
        validationError({ from: ['Ngày bắt đầu không hợp lệ.'], to: ['Ngày kết thúc không hợp lệ.'] }),
      ),
    );
    renderApp('/transactions/all?from=2026-11-01&to=2026-11-02', { user: true });
    const from = await screen.findByText('Ngày bắt đầu không hợp lệ.');
    const to = screen.getByText('Ngày kết thúc không hợp lệ.');
    // Each beside its own field.
    expect(from.closest('[role="group"]')).toContainElement(screen.getAllByLabelText('Từ ngày').at(-1)!);
    expect(to.closest('[role="group"]')).toContainElement(screen.getAllByLabelText('Đến ngày').at(-1)!);
  });

  it('mends a link with an unknown type: the field starts at all types, and Lọc asks again', async () => {
    db.transactions = mixed();
    const { events, router } = await openHistory('/transactions/all?type=credit.bonus&status=failed');
    expect(await screen.findByText(HISTORY_TYPE_INVALID)).toBeInTheDocument();
    expect(filter('Loại giao dịch')).toHaveValue('');
    await events.click(screen.getByRole('button', { name: 'Lọc' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=failed'));
    expect(await bodyRows()).toHaveLength(5);
    expect(screen.queryByText(HISTORY_TYPE_INVALID)).toBeNull();
  });
});

describe('full history: CSV', () => {
  it('links to the export with the filters of the page, for the browser to download', async () => {
    await openHistory();
    await table();
    expect(csvLink()).toHaveAttribute('href', '/api/transactions/export.csv');
    expect(csvLink()).toHaveAttribute('download');

    renderApp('/transactions/all?type=topup.card&status=failed&from=2026-11-01&to=2026-11-30', { user: true });
    await waitFor(() =>
      expect(screen.getAllByRole('link', { name: 'Tải CSV' }).at(-1)).toHaveAttribute(
        'href',
        '/api/transactions/export.csv?type=topup.card&status=failed&from=2026-11-01&to=2026-11-30',
      ),
    );
  });

  it('follows the filters once they are applied', async () => {
    const { events } = await openHistory();
    await table();
    await events.selectOptions(filter('Trạng thái'), 'Đang xử lý');
    // Not before Lọc: the link is what the list shows.
    expect(csvLink()).toHaveAttribute('href', '/api/transactions/export.csv');
    await events.click(screen.getByRole('button', { name: 'Lọc' }));
    await waitFor(() => expect(csvLink()).toHaveAttribute('href', '/api/transactions/export.csv?status=pending'));
  });

  it('is no link while the server refuses the filters', async () => {
    await openHistory('/transactions/all?status=done');
    expect(await screen.findByText('Trạng thái giao dịch không hợp lệ.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Tải CSV' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Tải CSV' })).toBeDisabled();
  });
});

describe('full history: receipts', () => {
  it("opens a row's receipt and comes back to the same filtered page", async () => {
    db.transactions = cards(3, { status: 'failed' });
    const { events, router } = await openHistory('/transactions/all?status=failed');
    const [first] = (await bodyRows()) as [HTMLElement];
    await events.click(within(first).getByRole('link', { name: 'Xem biên lai' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Biên lai giao dịch' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/transactions/${db.transactions[0]!.id}`);

    await events.click(await screen.findByRole('link', { name: 'Quay lại lịch sử giao dịch' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=failed'));
    expect(router.state.location.pathname).toBe('/transactions/all');
  });
});
