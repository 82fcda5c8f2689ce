import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { captchaStub as captcha } from '@/testing/captcha-stub';
import { buildUser } from '@/testing/data';
import { captchaTokenFor, validationError } from '@/testing/mocks/common';
import { db } from '@/testing/mocks/db';
import {
  CARD_ALREADY_PENDING,
  PAYMENT_CAPTCHA_REFUSED,
  paymentDb,
} from '@/testing/mocks/payment-handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { User } from '@/types/api-schema';

vi.mock('@/hooks/use-captcha', async (importOriginal) =>
  (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()),
);

const RECHARGE = '/api/payment/card-recharge';
const VIETTEL_PIN = '512345678901234';
const VIETTEL_SERIAL = '10000123456789';

const radio = (name: string | RegExp) => screen.getByRole('radio', { name });
const providerGroup = () => screen.getByRole('radiogroup', { name: 'Loại thẻ' });
const valueGroup = () => screen.queryByRole('radiogroup', { name: 'Mệnh giá' });
const pinField = () => screen.queryByRole('textbox', { name: /^Mã thẻ/ });
const serialField = () => screen.queryByRole('textbox', { name: /^Số seri/ });
const main = () => within(screen.getByRole('main'));
const submitButton = () => main().getByRole('button', { name: 'Nạp thẻ' });

/** Opens /payment/card and confirms the rules. */
async function openForm(user: User = buildUser()) {
  const rendered = renderApp('/payment/card', { user });
  await rendered.events.click(await screen.findByRole('button', { name: 'Tôi đã đọc và đồng ý' }));
  await screen.findByRole('radiogroup', { name: 'Loại thẻ' });
  return rendered;
}

/** Captures the JSON bodies sent to the card call, leaving the answer to the fake server. */
function captureBodies() {
  const bodies: unknown[] = [];
  server.use(
    http.post(RECHARGE, async ({ request }) => {
      bodies.push(await request.clone().json());
      return undefined;
    }),
  );
  return bodies;
}

beforeEach(() => {
  captcha.reset();
});

describe('card top-up: rules and pickers', () => {
  it('shows the rules first, and the provider picker only once they are confirmed', async () => {
    const { events } = renderApp('/payment/card', { user: true });
    expect(await screen.findByRole('heading', { level: 2, name: 'Thẻ cào' })).toBeInTheDocument();
    const rules = screen.getByRole('region', { name: 'Quy định nạp thẻ cào' });
    expect(within(rules).getAllByRole('listitem')).toHaveLength(6);
    expect(rules).toHaveTextContent('Thẻ thường được xử lý trong 1-30 giây.');
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(main().queryByRole('button', { name: 'Nạp thẻ' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Chọn phương thức khác' })).toHaveAttribute('href', '/payment');

    await events.click(within(rules).getByRole('button', { name: 'Tôi đã đọc và đồng ý' }));

    expect(await screen.findByRole('radiogroup', { name: 'Loại thẻ' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Quy định nạp thẻ cào' })).toBeNull();
    expect(
      within(providerGroup())
        .getAllByRole('radio')
        .map((input) => input.closest('label')?.textContent),
    ).toEqual(['Viettel', 'Vinaphone', 'Mobifone', 'VietnamobileTạm ngưng', 'Zing', 'Gate', 'VTC', 'Garena']);
  });

  it('says the methods are loading after the rules are confirmed', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/payment/methods', async () => {
        await answered;
        return undefined;
      }),
    );
    const { events } = renderApp('/payment/card', { user: true });
    await events.click(await screen.findByRole('button', { name: 'Tôi đã đọc và đồng ý' }));
    expect(screen.getByText('Đang tải phương thức thanh toán...')).toBeInTheDocument();
    answer();
    expect(await screen.findByRole('radiogroup', { name: 'Loại thẻ' })).toBeInTheDocument();
    expect(screen.queryByText('Đang tải phương thức thanh toán...')).toBeNull();
  });

  it('shows the face values with the KP each brings after the fee, then PIN and serial', async () => {
    const { events } = await openForm();
    expect(valueGroup()).toBeNull();
    expect(pinField()).toBeNull();

    await events.click(radio('Viettel'));
    const values = within(valueGroup()!).getAllByRole('radio');
    expect(values.map((input) => input.closest('label')?.textContent)).toEqual([
      '10,000 VNDNhận 8,500 KPPhí 15%',
      '20,000 VNDNhận 17,000 KPPhí 15%',
      '50,000 VNDNhận 42,500 KPPhí 15%',
      '100,000 VNDNhận 85,000 KPPhí 15%',
      '200,000 VNDNhận 170,000 KPPhí 15%',
      '300,000 VNDNhận 255,000 KPPhí 15%',
      '500,000 VNDNhận 425,000 KPPhí 15%',
      '1,000,000 VNDNhận 850,000 KPPhí 15%',
    ]);
    expect(pinField()).toBeNull();

    await events.click(radio(/^100,000 VND/));
    expect(radio(/^100,000 VND/)).toBeChecked();
    expect(pinField()).toBeInTheDocument();
    expect(serialField()).toBeInTheDocument();
    expect(screen.getByText('Mã thẻ gồm 15 ký tự, nằm dưới lớp bạc cào.')).toBeInTheDocument();
    expect(screen.getByText('Số seri gồm 14 ký tự, in trên thẻ.')).toBeInTheDocument();
  });

  it('shows a partner the bonus on each face value, at their tier', async () => {
    const { events } = await openForm(buildUser({ isPayPartner: true, payAmountLast28Days: 120_000_000 }));
    await events.click(radio('Gate'));
    expect(radio(/^10,000 VND/).closest('label')).toHaveTextContent('10,000 VNDNhận 8,750 KP+2,187 KP thưởngPhí 12.5%');
    await events.click(radio('Viettel'));
    expect(radio(/^100,000 VND/).closest('label')).toHaveTextContent('Nhận 85,000 KP+21,250 KP thưởng');
  });

  it('clears the face value when the provider changes', async () => {
    const { events } = await openForm();
    await events.click(radio('Viettel'));
    await events.click(radio(/^1,000,000 VND/));
    expect(pinField()).toBeInTheDocument();

    await events.click(radio('Mobifone'));

    expect(radio('Mobifone')).toBeChecked();
    expect(within(valueGroup()!).getAllByRole('radio').filter((input) => (input as HTMLInputElement).checked)).toEqual([]);
    // Mobifone has no 1,000,000 card.
    expect(within(valueGroup()!).queryByRole('radio', { name: /^1,000,000 VND/ })).toBeNull();
    expect(pinField()).toBeNull();
    expect(serialField()).toBeNull();

    await events.click(radio(/^100,000 VND/));
    expect(screen.getByText('Mã thẻ gồm 12 ký tự, nằm dưới lớp bạc cào.')).toBeInTheDocument();
    expect(screen.getByText('Số seri gồm 15 ký tự, in trên thẻ.')).toBeInTheDocument();
  });

  it('says a disabled provider is not supported and offers nothing to send', async () => {
    const { events } = await openForm();
    await events.click(radio(/^Vietnamobile/));
    expect(screen.getByText('Thẻ Vietnamobile tạm thời chưa được hỗ trợ')).toBeInTheDocument();
    expect(valueGroup()).toBeNull();
    expect(pinField()).toBeNull();
    expect(submitButton()).toBeDisabled();

    await events.click(radio('Zing'));
    expect(screen.queryByText('Thẻ Vietnamobile tạm thời chưa được hỗ trợ')).toBeNull();
    expect(submitButton()).toBeEnabled();
  });
});

describe('card top-up: validation', () => {
  it('asks for a provider, then a face value', async () => {
    const { events } = await openForm();
    await events.click(submitButton());
    expect(await screen.findByText('Hãy chọn loại thẻ bạn muốn nạp.')).toBeInTheDocument();

    await events.click(radio('Viettel'));
    await waitFor(() => expect(screen.queryByText('Hãy chọn loại thẻ bạn muốn nạp.')).toBeNull());
    await events.click(submitButton());
    expect(await screen.findByText('Hãy chọn mệnh giá bạn muốn nạp.')).toBeInTheDocument();
    expect(db.requests).not.toContain(`POST ${RECHARGE}`);
  });

  it("asks for a PIN and serial of exactly the provider's lengths", async () => {
    const { events } = await openForm();
    await events.click(radio('Garena'));
    await events.click(radio(/^50,000 VND/));
    await events.click(submitButton());
    expect(await screen.findByText('Hãy nhập vào mã thẻ.')).toBeInTheDocument();
    expect(screen.getByText('Hãy nhập vào số seri của thẻ.')).toBeInTheDocument();
    expect(pinField()).toHaveAttribute('aria-invalid', 'true');

    await events.type(pinField()!, '123456789012345');
    expect(await screen.findByText('Mã thẻ phải có 16 ký tự.')).toBeInTheDocument();
    await events.type(pinField()!, '6');
    await waitFor(() => expect(pinField()).not.toHaveAttribute('aria-invalid'));

    await events.type(serialField()!, '1234567890');
    expect(await screen.findByText('Số seri phải có 9 ký tự.')).toBeInTheDocument();
    await events.clear(serialField()!);
    await events.type(serialField()!, 'AB12-3456');
    expect(await screen.findByText('Số seri phải có 9 ký tự.')).toBeInTheDocument();
    await events.clear(serialField()!);
    await events.type(serialField()!, 'AB1234567');
    await waitFor(() => expect(serialField()).not.toHaveAttribute('aria-invalid'));
    expect(db.requests).not.toContain(`POST ${RECHARGE}`);
  });
});

describe('card top-up: sending', () => {
  it('sends the card with a captcha token and says it will be processed in 1-30 s', async () => {
    const bodies = captureBodies();
    const { events, queryClient, router } = await openForm(buildUser({ credit: 1000 }));
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await events.click(radio('Viettel'));
    await events.click(radio(/^100,000 VND/));
    // Spaces typed between the groups printed on the card are not sent.
    await events.type(pinField()!, '5123 4567 8901 234');
    await events.type(serialField()!, VIETTEL_SERIAL);
    await events.click(submitButton());

    expect(await screen.findByText('Gửi thẻ thành công!')).toBeInTheDocument();
    expect(screen.getByText('Thẻ của bạn sẽ được xử lý trong 1-30 giây. Kết quả sẽ được cập nhật trong lịch sử giao dịch.')).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        provider: 'viettel',
        value: 100000,
        pin: VIETTEL_PIN,
        serial: VIETTEL_SERIAL,
        gReCaptchaToken: captchaTokenFor('cardRechargeFormSubmit'),
      },
    ]);
    expect(captcha.actions).toEqual(['cardRechargeFormSubmit']);
    expect(paymentDb.cardOrders).toHaveLength(1);
    const csrfAt = db.requests.lastIndexOf('GET /api/auth/csrf-cookie');
    expect(csrfAt).toBeGreaterThanOrEqual(0);
    expect(csrfAt).toBeLessThan(db.requests.indexOf(`POST ${RECHARGE}`));

    // The face value and the codes clear; the provider stays chosen.
    expect(radio('Viettel')).toBeChecked();
    expect(within(valueGroup()!).getAllByRole('radio').filter((input) => (input as HTMLInputElement).checked)).toEqual([]);
    expect(pinField()).toBeNull();
    expect(serialField()).toBeNull();
    // The balance and the history are asked for again.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['me'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['transactions', 'history'] });
    await waitFor(() => expect(db.requests.slice(db.requests.indexOf(`POST ${RECHARGE}`))).toContain('GET /api/me'));

    const history = screen.getByRole('link', { name: 'Xem lịch sử giao dịch' });
    expect(history).toHaveAttribute('href', '/transactions');
    await events.click(history);
    expect(await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/transactions');
    expect((await screen.findAllByText(`Seri: ${VIETTEL_SERIAL}`)).length).toBeGreaterThan(0);
  });

  it('shows the server message while the same card is still being processed', async () => {
    const { events } = await openForm();
    await events.click(radio('Mobifone'));
    await events.click(radio(/^50,000 VND/));
    await events.type(pinField()!, '123456789012');
    // The seeded history holds this Mobifone card, pending.
    await events.type(serialField()!, '200000000000002');
    await events.click(submitButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Nạp thẻ không thành công');
    expect(alert).toHaveTextContent(CARD_ALREADY_PENDING);
    expect(screen.queryByText('Gửi thẻ thành công!')).toBeNull();
    expect(pinField()).toHaveValue('123456789012');
    expect(paymentDb.cardOrders).toEqual([]);
  });

  it("puts the server's field messages beside their fields", async () => {
    server.use(
      http.post(RECHARGE, () =>
        validationError({ pin: ['Mã thẻ phải có 15 ký tự.'], serial: ['Số seri phải có 14 ký tự.'] }),
      ),
    );
    const { events } = await openForm();
    await events.click(radio('Viettel'));
    await events.click(radio(/^20,000 VND/));
    await events.type(pinField()!, VIETTEL_PIN);
    await events.type(serialField()!, VIETTEL_SERIAL);
    await events.click(submitButton());

    expect(await screen.findByText('Mã thẻ phải có 15 ký tự.')).toBeInTheDocument();
    expect(screen.getByText('Số seri phải có 14 ký tự.')).toBeInTheDocument();
    expect(pinField()).toHaveAttribute('aria-invalid', 'true');
    expect(serialField()).toHaveAttribute('aria-invalid', 'true');
    expect(pinField()).toHaveFocus();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows under the picker that a provider was disabled since the page loaded', async () => {
    const { events } = await openForm();
    await events.click(radio('Viettel'));
    await events.click(radio(/^20,000 VND/));
    await events.type(pinField()!, VIETTEL_PIN);
    await events.type(serialField()!, VIETTEL_SERIAL);
    paymentDb.methods.cards[0] = { ...paymentDb.methods.cards[0]!, enabled: false };
    await events.click(submitButton());

    expect(await screen.findByText('Thẻ Viettel tạm thời chưa được hỗ trợ')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(paymentDb.cardOrders).toEqual([]);
  });

  it('shows a refused captcha above the button', async () => {
    captcha.token = captchaTokenFor('registerFormSubmit');
    const { events } = await openForm();
    await events.click(radio('Viettel'));
    await events.click(radio(/^20,000 VND/));
    await events.type(pinField()!, VIETTEL_PIN);
    await events.type(serialField()!, VIETTEL_SERIAL);
    await events.click(submitButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(PAYMENT_CAPTCHA_REFUSED);
    expect(paymentDb.cardOrders).toEqual([]);
  });

  it('shows the server message of any other failure', async () => {
    server.use(http.post(RECHARGE, () => HttpResponse.json({ message: 'Nhà cung cấp từ chối thẻ này, hãy kiểm tra lại thông tin thẻ.' }, { status: 400 })));
    const { events } = await openForm();
    await events.click(radio('Zing'));
    await events.click(radio(/^10,000 VND/));
    await events.type(pinField()!, '123456789');
    await events.type(serialField()!, 'ZA1234567890');
    await events.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Nhà cung cấp từ chối thẻ này, hãy kiểm tra lại thông tin thẻ.');
    expect(submitButton()).toBeEnabled();
  });

  it('does nothing on submit while the captcha has not loaded', async () => {
    captcha.loaded = false;
    const { events } = await openForm();
    await events.click(radio('Viettel'));
    await events.click(radio(/^20,000 VND/));
    await events.type(pinField()!, VIETTEL_PIN);
    await events.type(serialField()!, VIETTEL_SERIAL);
    await events.click(submitButton());

    // Give a request the time it would take.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(db.requests).not.toContain(`POST ${RECHARGE}`);
    expect(screen.queryByText('Gửi thẻ thành công!')).toBeNull();
    expect(pinField()).toHaveValue(VIETTEL_PIN);
  });
});
