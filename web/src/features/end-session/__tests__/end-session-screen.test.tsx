import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { paths } from '@/config/paths';
import { USER_QUERY_KEY } from '@/lib/auth';
import { buildUser } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { END_SESSION_LINK_INVALID, END_SESSION_TOKEN, signInsDb } from '@/testing/mocks/sign-ins-handlers';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

const END_SESSION = '/api/auth/end-session';
const link = paths.endSession;

const signOutButton = () => screen.getByRole('button', { name: 'Đăng xuất thiết bị đó' });

/** The screen as the link opens it: what the link does, and the one button. */
async function openLink(token: string, options: Parameters<typeof renderApp>[1] = {}) {
  const rendered = renderApp(link(token), options);
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Đăng xuất thiết bị vừa đăng nhập' }),
  ).toBeInTheDocument();
  return rendered;
}

/** After a sign-out, whichever way: reset the password, then turn two-factor on. */
function expectAdvice() {
  expect(
    screen.getByText(
      'Nếu lần đăng nhập đó không phải của bạn, mật khẩu của bạn có thể đã bị lộ. Hãy đặt lại mật khẩu ngay, rồi đăng nhập và bật xác thực hai lớp tại trang Bảo mật và đăng nhập.',
    ),
  ).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Đặt lại mật khẩu' })).toHaveAttribute('href', '/recovery/forgot-password');
  expect(screen.getByRole('link', { name: 'Bật xác thực hai lớp' })).toHaveAttribute('href', '/security');
}

describe('end-session screen', () => {
  it('says what the link does and sends nothing until the button is pressed, even in strict mode', async () => {
    await openLink(END_SESSION_TOKEN, { strict: true });
    expect(
      screen.getByText(
        'Tài khoản Kid của bạn vừa được đăng nhập từ một thiết bị mới. Đường dẫn trong email thông báo dùng để đăng xuất thiết bị đó.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Nếu lần đăng nhập đó không phải của bạn, hãy bấm nút dưới đây để đăng xuất thiết bị ấy ngay. Nếu đó là bạn, bạn không cần làm gì thêm.',
      ),
    ).toBeInTheDocument();
    expect(signOutButton()).toBeEnabled();
    // A mail scanner opening the link signs nothing out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(db.requests).not.toContain(`POST ${END_SESSION}`);
    expect(signInsDb.attempts).toEqual([]);
  });

  it('signs the session out with the token of the link after the CSRF cookie, then advises a new password and two-factor', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.post(END_SESSION, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return undefined;
      }),
    );
    const { events } = await openLink(END_SESSION_TOKEN);
    const button = signOutButton();
    await events.click(button);
    // Busy until the server answers: a second press sends nothing more.
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('data-loading');
    release();

    expect(await screen.findByRole('heading', { level: 2, name: 'Đã đăng xuất thiết bị!' })).toBeInTheDocument();
    expect(screen.getByText('Thiết bị vừa đăng nhập đã bị đăng xuất khỏi tài khoản của bạn.')).toBeInTheDocument();
    expectAdvice();
    expect(screen.queryByRole('button', { name: 'Đăng xuất thiết bị đó' })).toBeNull();
    expect(signInsDb.attempts).toEqual([END_SESSION_TOKEN]);
    expect(signInsDb.sessionLive).toBe(false);
    const postAt = db.requests.indexOf(`POST ${END_SESSION}`);
    expect(postAt).toBeGreaterThan(0);
    expect(db.requests[postAt - 1]).toBe('GET /api/auth/csrf-cookie');
    expect(db.requests.filter((request) => request === `POST ${END_SESSION}`)).toHaveLength(1);
  });

  it('says when the session had already ended', async () => {
    signInsDb.sessionLive = false;
    const { events } = await openLink(END_SESSION_TOKEN);
    await events.click(signOutButton());

    expect(await screen.findByRole('heading', { level: 2, name: 'Phiên đăng nhập đã kết thúc' })).toBeInTheDocument();
    expect(
      screen.getByText('Thiết bị đó đã được đăng xuất từ trước, hoặc phiên đăng nhập đã hết hạn.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Đã đăng xuất thiết bị!')).toBeNull();
    expectAdvice();
  });

  it("shows the server's message when the link is unknown, used or expired", async () => {
    const { events } = await openLink('no-such-token');
    await events.click(signOutButton());

    expect(await screen.findByRole('heading', { level: 2, name: 'Đường dẫn không hợp lệ' })).toBeInTheDocument();
    expect(screen.getByText(END_SESSION_LINK_INVALID)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Xem thiết bị đang đăng nhập' })).toHaveAttribute('href', '/security');
    expect(screen.queryByRole('button', { name: 'Đăng xuất thiết bị đó' })).toBeNull();
    expect(signInsDb.attempts).toEqual(['no-such-token']);
    expect(signInsDb.sessionLive).toBe(true);
  });

  it('sends a token that needs URL decoding as the player received it', async () => {
    const { events } = await openLink('a token/with+odd chars');
    await events.click(signOutButton());
    expect(await screen.findByText(END_SESSION_LINK_INVALID)).toBeInTheDocument();
    expect(signInsDb.attempts).toEqual(['a token/with+odd chars']);
  });

  it('keeps the button to try again when the server fails otherwise', async () => {
    let fail = true;
    server.use(
      http.post(END_SESSION, () =>
        fail ? HttpResponse.json({ message: 'Dịch vụ tạm thời gián đoạn, xin thử lại sau.' }, { status: 503 }) : undefined,
      ),
    );
    const { events } = await openLink(END_SESSION_TOKEN);
    await events.click(signOutButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Đăng xuất không thành công');
    expect(alert).toHaveTextContent('Dịch vụ tạm thời gián đoạn, xin thử lại sau.');

    fail = false;
    await events.click(signOutButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Đã đăng xuất thiết bị!' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("marks a signed-in player's user data out of date once the session is signed out", async () => {
    const { events, queryClient } = await openLink(END_SESSION_TOKEN, { user: buildUser() });
    queryClient.setQueryData(USER_QUERY_KEY, buildUser());
    await events.click(signOutButton());

    expect(await screen.findByRole('heading', { level: 2, name: 'Đã đăng xuất thiết bị!' })).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryState(USER_QUERY_KEY)?.isInvalidated).toBe(true));
  });

  it('without a token goes to /login', async () => {
    const { router } = renderApp('/end-session');
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(db.requests).not.toContain(`POST ${END_SESSION}`);
  });
});
