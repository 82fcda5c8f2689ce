import { render } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { QRCodeSVG } from 'qrcode.react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { buildUser } from '@/testing/data';
import { buildPaymentMethods, PAYMENT_SYNTAX, paymentDb } from '@/testing/mocks/payment-handlers';
import { server } from '@/testing/mocks/server';
import { act, fireEvent, renderApp, screen, waitFor, within } from '@/testing/test-utils';

const account = (name: string) => screen.getByRole('region', { name });

/** The term/definition pairs of an account card, as "label: value". */
const facts = (region: HTMLElement) =>
  within(region)
    .getAllByRole('term')
    .map((term) => `${term.textContent}: ${within(term.nextElementSibling as HTMLElement).getByRole('button').textContent}`);

/** The SVG that QRCodeSVG draws for `value` at the spec's size and level, black on white. */
function expectedQr(value: string, name: string) {
  const { container, unmount } = render(
    <QRCodeSVG value={value} size={144} level="L" bgColor="#ffffff" fgColor="#000000" title={`Mã QR chuyển khoản đến ${name}`} />,
  );
  const svg = container.innerHTML;
  unmount();
  return svg;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('bank transfer', () => {
  it('shows each bank with its QR code, account and the transfer content', async () => {
    renderApp('/payment/bank-transfer', { user: true });
    expect(await screen.findByRole('heading', { level: 2, name: 'Ngân hàng' })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'Vietcombank' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Vietcombank',
      'Techcombank',
    ]);

    const vietcombank = account('Vietcombank');
    expect(facts(vietcombank)).toEqual([
      'Chủ tài khoản: CONG TY CO PHAN KID',
      'Số tài khoản: 1023456789',
      `Nội dung chuyển khoản: ${PAYMENT_SYNTAX}`,
    ]);
    expect(facts(account('Techcombank'))[1]).toBe('Số tài khoản: 19036677889900');

    const qrData = paymentDb.methods.bankTransfers[0]!.qrCodeData;
    // The VietQR payload carries the player's transfer content (field 62, sub-field 08).
    expect(qrData).toContain(`62140810${PAYMENT_SYNTAX}`);
    const qr = within(vietcombank).getByRole('img', { name: 'Mã QR chuyển khoản đến Vietcombank' });
    expect(qr).toHaveAttribute('width', '144');
    expect(qr).toHaveAttribute('height', '144');
    expect(qr.outerHTML).toBe(expectedQr(qrData, 'Vietcombank'));
    expect(within(account('Techcombank')).getByRole('img').outerHTML).toBe(
      expectedQr(paymentDb.methods.bankTransfers[1]!.qrCodeData, 'Techcombank'),
    );
  });

  it('says transfers are credited automatically when they carry the exact content', async () => {
    renderApp('/payment/bank-transfer', { user: true });
    await screen.findByRole('region', { name: 'Vietcombank' });
    expect(screen.getByText('Giao dịch được xử lý tự động')).toBeInTheDocument();
    expect(
      screen.getByText(
        `KP được cộng vào tài khoản ngay khi chúng tôi nhận được tiền. Hãy nhập chính xác nội dung chuyển khoản ${PAYMENT_SYNTAX}: thiếu hoặc sai nội dung, giao dịch sẽ không được xử lý tự động.`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Chọn phương thức khác' })).toHaveAttribute('href', '/payment');
  });

  it('shows what 10,000 VND brings at each rate', async () => {
    server.use(
      http.get('/api/payment/methods', () => {
        const methods = buildPaymentMethods();
        methods.bankTransfers[1] = { ...methods.bankTransfers[1]!, exchangeRate: 1.15 };
        return HttpResponse.json(methods);
      }),
    );
    renderApp('/payment/bank-transfer', { user: buildUser({ isPayPartner: false }) });
    await screen.findByRole('region', { name: 'Vietcombank' });
    const rates = screen.getAllByTestId('transfer-rate').map((line) => line.textContent);
    expect(rates).toEqual(['Tỷ giá: 10,000 VND = 10,000 KP', 'Tỷ giá: 10,000 VND = 11,500 KP']);
  });

  it("adds a partner's bonus to the rate", async () => {
    renderApp('/payment/bank-transfer', { user: buildUser({ isPayPartner: true, payAmountLast28Days: 60_000_000 }) });
    await screen.findByRole('region', { name: 'Vietcombank' });
    expect(screen.getAllByTestId('transfer-rate')[0]).toHaveTextContent(
      'Tỷ giá: 10,000 VND = 10,000 KP +2,000 KP thưởng đối tác (20%)',
    );
  });

  it('copies a value on click and says so for 3 seconds', async () => {
    renderApp('/payment/bank-transfer', { user: true });
    const vietcombank = await screen.findByRole('region', { name: 'Vietcombank' });
    const content = within(vietcombank).getByRole('button', { name: PAYMENT_SYNTAX });
    const contentField = content.closest<HTMLElement>('[data-testid="copy-field"]')!;
    const numberField = within(vietcombank).getByRole('button', { name: '1023456789' }).closest<HTMLElement>(
      '[data-testid="copy-field"]',
    )!;
    expect(within(contentField).getByRole('status')).toBeEmptyDOMElement();

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(content);
    await act(async () => {
      await Promise.resolve();
    });

    expect(await navigator.clipboard.readText()).toBe(PAYMENT_SYNTAX);
    expect(within(contentField).getByRole('status')).toHaveTextContent('Đã sao chép');
    expect(within(numberField).getByRole('status')).toBeEmptyDOMElement();

    act(() => {
      vi.advanceTimersByTime(2_999);
    });
    expect(within(contentField).getByRole('status')).toHaveTextContent('Đã sao chép');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(within(contentField).getByRole('status')).toBeEmptyDOMElement();

    fireEvent.click(within(numberField).getByRole('button'));
    await act(async () => {
      await Promise.resolve();
    });
    expect(await navigator.clipboard.readText()).toBe('1023456789');
    expect(within(numberField).getByRole('status')).toHaveTextContent('Đã sao chép');
  });

  it('keeps the hint for 3 seconds after the last of several clicks', async () => {
    renderApp('/payment/bank-transfer', { user: true });
    const vietcombank = await screen.findByRole('region', { name: 'Vietcombank' });
    const name = within(vietcombank).getByRole('button', { name: 'CONG TY CO PHAN KID' });
    const status = () => within(name.closest<HTMLElement>('[data-testid="copy-field"]')!).getByRole('status');

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(name);
    await act(async () => {
      await Promise.resolve();
    });
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    fireEvent.click(name);
    await act(async () => {
      await Promise.resolve();
    });
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(status()).toHaveTextContent('Đã sao chép');
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(status()).toBeEmptyDOMElement();
  });
});

describe('e-wallet', () => {
  it('shows each e-wallet with its QR code, phone number and the transfer content', async () => {
    renderApp('/payment/e-wallet', { user: true });
    expect(await screen.findByRole('heading', { level: 2, name: 'Ví điện tử' })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'MoMo' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'MoMo',
      'ViettelPay',
    ]);
    expect(facts(account('MoMo'))).toEqual([
      'Chủ tài khoản: CONG TY CO PHAN KID',
      'Số điện thoại: 0901234567',
      `Nội dung chuyển khoản: ${PAYMENT_SYNTAX}`,
    ]);
    const qrData = paymentDb.methods.eWallets[0]!.qrCodeData;
    expect(qrData).toContain(`62140810${PAYMENT_SYNTAX}`);
    expect(within(account('MoMo')).getByRole('img', { name: 'Mã QR chuyển khoản đến MoMo' }).outerHTML).toBe(
      expectedQr(qrData, 'MoMo'),
    );
    expect(screen.getByText('Giao dịch được xử lý tự động')).toBeInTheDocument();
  });

  it('leaves the QR code out for a method that comes without one', async () => {
    server.use(
      http.get('/api/payment/methods', () => {
        const methods = buildPaymentMethods();
        methods.eWallets[0] = { ...methods.eWallets[0]!, qrCodeData: '' };
        return HttpResponse.json(methods);
      }),
    );
    renderApp('/payment/e-wallet', { user: true });
    const momo = await screen.findByRole('region', { name: 'MoMo' });
    expect(within(momo).queryByRole('img')).toBeNull();
    expect(facts(momo)[1]).toBe('Số điện thoại: 0901234567');
    expect(within(account('ViettelPay')).getByRole('img', { name: 'Mã QR chuyển khoản đến ViettelPay' })).toBeInTheDocument();
  });

  it('says loading while the methods load, then shows them', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/payment/methods', async () => {
        await answered;
        return undefined;
      }),
    );
    renderApp('/payment/e-wallet', { user: true });
    expect(await screen.findByText('Đang tải phương thức thanh toán...')).toBeInTheDocument();
    answer();
    expect(await screen.findByRole('region', { name: 'MoMo' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Đang tải phương thức thanh toán...')).toBeNull());
  });

  it('says the method is not available when the server lists none', async () => {
    server.use(
      http.get('/api/payment/methods', () => HttpResponse.json({ ...buildPaymentMethods(), eWallets: [] })),
    );
    renderApp('/payment/e-wallet', { user: true });
    expect(await screen.findByText('Phương thức này hiện chưa khả dụng, hãy chọn phương thức khác.')).toBeInTheDocument();
    expect(screen.queryByText('Giao dịch được xử lý tự động')).toBeNull();
  });
});
