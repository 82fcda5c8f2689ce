import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { USER_QUERY_KEY } from '@/lib/auth';
import { buildUser, EMAIL_VERIFICATION_TOKEN } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

const VERIFY = '/api/auth/email-verification';
const link = (token: string) => `/email-verification/${token}`;

async function expectBrokenLink() {
  expect(await screen.findByRole('heading', { level: 2, name: 'Đường dẫn của bạn không hoạt động' })).toBeInTheDocument();
  expect(screen.getByText('Hãy thử mở lại đường dẫn trong email bạn nhận được.')).toBeInTheDocument();
  expect(screen.getByText('Để nhận email mới, hãy vào Quản lý tài khoản và gửi lại yêu cầu.')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Đến Quản lý tài khoản' })).toHaveAttribute('href', '/');
  expect(screen.queryByText('Đã xong!')).not.toBeInTheDocument();
}

describe('email verification screen', () => {
  it('checks the link, then says the account is verified and offers to sign in', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.put(VERIFY, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp(link(EMAIL_VERIFICATION_TOKEN));

    expect(await screen.findByRole('heading', { level: 1, name: 'Xác minh địa chỉ Email' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Xác minh địa chỉ email để bảo vệ tài khoản của bạn và sử dụng các phương thức bảo mật nâng cao.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('Đang xác thực thông tin của bạn...')).toBeInTheDocument();
    release();

    expect(await screen.findByRole('heading', { level: 2, name: 'Đã xong!' })).toBeInTheDocument();
    expect(screen.queryByText('Đang xác thực thông tin của bạn...')).not.toBeInTheDocument();
    expect(
      screen.getByText('Tài khoản của bạn đã được xác minh. Giờ đây bạn có thể sử dụng các phương thức bảo mật nâng cao.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Hãy thử đăng nhập' })).toHaveAttribute('href', '/login');
    expect(
      screen.getByText('Lưu ý: trang này sẽ không còn hiệu lực sau khi quá trình xác minh hoàn tất.'),
    ).toBeInTheDocument();
  });

  it('sends the token of the link once, after fetching the CSRF cookie, even in strict mode', async () => {
    renderApp(link(EMAIL_VERIFICATION_TOKEN), { strict: true });

    expect(await screen.findByRole('heading', { level: 2, name: 'Đã xong!' })).toBeInTheDocument();
    expect(db.emailVerification.attempts).toEqual([EMAIL_VERIFICATION_TOKEN]);
    expect(db.requests.filter((request) => request === `PUT ${VERIFY}`)).toHaveLength(1);
    expect(db.requests.indexOf('GET /api/auth/csrf-cookie')).toBeLessThan(db.requests.indexOf(`PUT ${VERIFY}`));
    expect(db.user.verifiedAt).not.toBeNull();
  });

  it('sends a token that needs URL decoding as the player received it', async () => {
    renderApp(link(encodeURIComponent('a token/with+odd chars')));
    await expectBrokenLink();
    expect(db.emailVerification.attempts).toEqual(['a token/with+odd chars']);
  });

  it('shows the broken-link view when the token is unknown, expired or used', async () => {
    renderApp(link('no-such-token'));
    await expectBrokenLink();
    expect(db.emailVerification.attempts).toEqual(['no-such-token']);
  });

  it('shows the broken-link view when the server cannot be reached, without trying again', async () => {
    server.use(
      http.put(VERIFY, () => {
        db.requests.push(`PUT ${VERIFY}`);
        return HttpResponse.error();
      }),
    );
    renderApp(link(EMAIL_VERIFICATION_TOKEN));
    await expectBrokenLink();
    expect(db.requests.filter((request) => request === `PUT ${VERIFY}`)).toHaveLength(1);
  });

  it("marks a signed-in player's user data out of date once verified", async () => {
    const { queryClient } = renderApp(link(EMAIL_VERIFICATION_TOKEN), { user: buildUser({ verifiedAt: null }) });
    queryClient.setQueryData(USER_QUERY_KEY, buildUser({ verifiedAt: null }));

    expect(await screen.findByRole('heading', { level: 2, name: 'Đã xong!' })).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryState(USER_QUERY_KEY)?.isInvalidated).toBe(true));
  });

  it('lets a signed-in player back to / without the banner once verified', async () => {
    const { events, router } = renderApp(link(EMAIL_VERIFICATION_TOKEN), { user: buildUser({ verifiedAt: null }) });

    expect(await screen.findByRole('heading', { level: 2, name: 'Đã xong!' })).toBeInTheDocument();
    await events.click(screen.getByRole('link', { name: 'Hãy thử đăng nhập' }));

    // /login sends a signed-in player on to /.
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByText('Đã xác minh')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Gửi yêu cầu xác minh' })).not.toBeInTheDocument();
  });

  it('without a token goes to /login', async () => {
    const { router } = renderApp('/email-verification');
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(db.requests).not.toContain(`PUT ${VERIFY}`);
  });
});
