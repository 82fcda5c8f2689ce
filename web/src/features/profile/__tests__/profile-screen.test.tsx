import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { buildUser } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { ALREADY_VERIFIED, TOO_MANY_REQUESTS } from '@/testing/mocks/handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

const SEND = '/api/auth/email-verification/send';

const unverified = (overrides = {}) => buildUser({ email: 'an.nguyen@example.com', verifiedAt: null, ...overrides });

const LABELS = ['Họ và tên', 'Ngày sinh', 'Ngôn ngữ', 'Số điện thoại', 'Email'];

/**
 * The personal-info rows' values by label, without their edit buttons, after checking the
 * labels and their order.
 */
async function rows() {
  const terms = await screen.findAllByRole('term');
  expect(terms.map((term) => term.textContent)).toEqual(LABELS);
  return Object.fromEntries(
    terms.map((term) => {
      const value = term.nextElementSibling!.cloneNode(true) as HTMLElement;
      value.querySelectorAll('button').forEach((button) => button.remove());
      return [term.textContent, value];
    }),
  );
}

const banner = () => screen.queryByRole('region', { name: 'Địa chỉ email của bạn chưa được xác minh' });
const sendButton = () => screen.getByRole('button', { name: 'Gửi yêu cầu xác minh' });

describe('personal info', () => {
  it('shows name, birth date, language, phone and email of the signed-in player', async () => {
    renderApp('/', { user: buildUser({ firstName: 'An', middleName: 'Văn', lastName: 'Nguyễn' }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    const row = await rows();
    expect(row['Họ và tên']).toHaveTextContent(/^Nguyễn Văn An$/);
    expect(row['Ngày sinh']).toHaveTextContent(/^15\/01\/2000$/);
    expect(row['Ngôn ngữ']).toHaveTextContent(/^Tiếng Việt$/);
    expect(row['Số điện thoại']).toHaveTextContent(/^0901234567$/);
    expect(row.Email).toHaveTextContent('player01@example.com');
    expect(row.Email).toHaveTextContent('Đã xác minh');
  });

  it('says what is not filled in yet', async () => {
    renderApp('/', {
      user: buildUser({ firstName: '', middleName: '', lastName: '  ', dob: '', phoneNumber: '' }),
    });
    const row = await rows();
    expect(row['Họ và tên']).toHaveTextContent(/^Chưa cập nhật$/);
    expect(row['Ngày sinh']).toHaveTextContent(/^Chưa cập nhật$/);
    expect(row['Ngôn ngữ']).toHaveTextContent(/^Tiếng Việt$/);
    expect(row['Số điện thoại']).toHaveTextContent(/^Chưa cập nhật$/);
    expect(row.Email).toHaveTextContent('player01@example.com');
  });

  it('asks no verified player to verify their address', async () => {
    renderApp('/', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' });
    await rows();
    expect(banner()).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Gửi yêu cầu xác minh' })).not.toBeInTheDocument();
  });
});

describe('email verification banner', () => {
  it('asks an unverified player to verify the address it names', async () => {
    renderApp('/', { user: unverified() });
    await waitFor(() => expect(banner()).toBeInTheDocument());
    expect(banner()).toHaveTextContent('an.nguyen@example.com');
    expect(sendButton()).toBeEnabled();
    const row = await rows();
    expect(row.Email).toHaveTextContent('Chưa xác minh');
    expect(db.requests).not.toContain(`POST ${SEND}`);
  });

  it('sends the mail after fetching the CSRF cookie, then says so and offers to send again', async () => {
    let release: () => void = () => undefined;
    let xsrf: string | null = null;
    server.use(
      http.post(SEND, async ({ request }) => {
        db.requests.push(`POST ${SEND}`);
        xsrf = request.headers.get('X-XSRF-TOKEN');
        await new Promise<void>((resolve) => (release = resolve));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { events } = renderApp('/', { user: unverified() });

    const button = await screen.findByRole('button', { name: 'Gửi yêu cầu xác minh' });
    await events.click(button);
    // Processing: the button is busy and cannot be pressed again.
    await waitFor(() => expect(db.requests).toContain(`POST ${SEND}`));
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('data-loading');
    release();

    const sent = await screen.findByRole('status');
    expect(sent).toHaveTextContent('Email xác minh đã được gửi đến an.nguyen@example.com.');
    expect(sent).toHaveTextContent('thư rác');
    expect(screen.getByRole('button', { name: 'Gửi lại' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Gửi yêu cầu xác minh' })).not.toBeInTheDocument();
    expect(xsrf).toBe('test-xsrf-token');
    const csrfAt = db.requests.lastIndexOf('GET /api/auth/csrf-cookie');
    expect(csrfAt).toBeGreaterThanOrEqual(0);
    expect(csrfAt).toBeLessThan(db.requests.indexOf(`POST ${SEND}`));
  });

  it('shows the server message when asked again within a minute, and still offers to send again', async () => {
    const { events } = renderApp('/', { user: unverified() });

    await events.click(await screen.findByRole('button', { name: 'Gửi yêu cầu xác minh' }));
    await events.click(await screen.findByRole('button', { name: 'Gửi lại' }));

    const alert = await within(banner()!).findByRole('alert');
    expect(alert).toHaveTextContent(TOO_MANY_REQUESTS);
    // Starting again cleared the earlier success.
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Gửi lại' })).toBeEnabled();
  });

  it('shows the server message when the address was verified meanwhile', async () => {
    const { events } = renderApp('/', { user: unverified() });
    const button = await screen.findByRole('button', { name: 'Gửi yêu cầu xác minh' });
    db.user = { ...db.user, verifiedAt: '2026-11-22T10:00:00Z' };

    await events.click(button);

    expect(await within(banner()!).findByRole('alert')).toHaveTextContent(ALREADY_VERIFIED);
    expect(sendButton()).toBeEnabled();
  });

  it('shows the transport message when the server cannot be reached', async () => {
    server.use(http.post(SEND, () => HttpResponse.error()));
    const { events } = renderApp('/', { user: unverified() });

    await events.click(await screen.findByRole('button', { name: 'Gửi yêu cầu xác minh' }));

    expect(await within(banner()!).findByRole('alert')).toHaveTextContent('Network Error');
  });
});
