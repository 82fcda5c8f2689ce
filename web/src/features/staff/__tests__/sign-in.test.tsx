import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import {
  STAFF_CODE_REQUIRED,
  STAFF_CODES,
  STAFF_PASSWORD,
  STAFF_SIGN_IN_FAILED,
  STAFF_TOO_MANY,
  staffDb,
} from '@/testing/mocks/staff-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

const SIGN_IN = '/api/staff/auth/sign-in';

const usernameField = () => screen.getByRole('textbox', { name: /Tên đăng nhập/ });
const passwordField = () => screen.getByLabelText(/Mật khẩu/, { selector: 'input' });
const codeField = () => screen.getByRole('textbox', { name: /Mã xác thực/ });
const submitButton = () => screen.getByRole('button', { name: 'Đăng nhập' });

type Events = ReturnType<typeof renderApp>['events'];

async function fillSignIn(
  events: Events,
  { username = 'staff-admin', password = STAFF_PASSWORD, code = STAFF_CODES[0] }: Partial<Record<'username' | 'password' | 'code', string>> = {},
) {
  await screen.findByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' });
  if (username) await events.type(usernameField(), username);
  if (password) await events.type(passwordField(), password);
  if (code) await events.type(codeField(), code);
  await events.click(submitButton());
}

describe('staff console sign-in', () => {
  it('sends a visitor without a console session from /staff to the console sign-in page', async () => {
    const { fullNavigations } = renderApp('/staff');
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' })).toBeInTheDocument();
    expect(fullNavigations).toEqual(['/staff/login']);
    expect(screen.getByRole('link', { name: 'Đăng nhập tài khoản Kid' })).toHaveAttribute('href', '/login');
  });

  it("shows a signed-in player the console's sign-in, not the console", async () => {
    const { fullNavigations } = renderApp('/staff/audit', { user: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' })).toBeInTheDocument();
    expect(fullNavigations).toEqual(['/staff/login?next_uri=%2Fstaff%2Faudit']);
    // The player's own session is not asked about: the console has its own.
    expect(db.requests).not.toContain('GET /api/me');
  });

  it('sends username, password and code after the console CSRF cookie, then opens the console', async () => {
    const { events, router } = renderApp('/staff/login');
    await fillSignIn(events, { code: ` ${STAFF_CODES[0].slice(0, 3)} ${STAFF_CODES[0].slice(3)} ` });

    expect(await screen.findByRole('heading', { level: 1, name: 'Xin chào, staff-admin' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/staff');
    const calls = staffDb.calls.map(({ call }) => call);
    expect(calls.indexOf('GET /api/staff/auth/csrf-cookie')).toBeLessThan(calls.indexOf(`POST ${SIGN_IN}`));
    const signIn = staffDb.calls.find(({ call }) => call === `POST ${SIGN_IN}`);
    expect(signIn?.body).toEqual({ username: 'staff-admin', password: STAFF_PASSWORD, code: STAFF_CODES[0] });
    expect(signIn?.xsrf).toBe('staff-xsrf-token');
    // The header says who and in which role.
    const header = screen.getByRole('banner');
    expect(within(header).getByText('staff-admin')).toBeInTheDocument();
    expect(within(header).getByText('Quản trị')).toBeInTheDocument();
  });

  it('leads back to next_uri once signed in', async () => {
    const { events, router } = renderApp('/staff/login?next_uri=%2Fstaff%2Faudit');
    await fillSignIn(events);
    expect(await screen.findByRole('heading', { level: 1, name: 'Nhật ký thao tác' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/staff/audit');
  });

  it('follows no next_uri outside the console', async () => {
    const { events, router } = renderApp('/staff/login?next_uri=%2Fsecurity');
    await fillSignIn(events);
    expect(await screen.findByRole('heading', { level: 1, name: 'Xin chào, staff-admin' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/staff');
  });

  it('says what is missing before sending anything', async () => {
    const { events } = renderApp('/staff/login');
    await screen.findByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' });
    await events.type(codeField(), '12345');
    await events.click(submitButton());

    expect(await screen.findByText('Hãy nhập tên đăng nhập.')).toBeInTheDocument();
    expect(screen.getByText('Hãy nhập mật khẩu.')).toBeInTheDocument();
    expect(screen.getByText('Mã xác thực gồm 6 chữ số.')).toBeInTheDocument();
    expect(staffDb.calls.map(({ call }) => call)).not.toContain(`POST ${SIGN_IN}`);
  });

  it("puts the server's refusal of a wrong username, password or code beside the username", async () => {
    const { events } = renderApp('/staff/login');
    await fillSignIn(events, { password: 'Wrong@123456' });

    expect(await screen.findByText(STAFF_SIGN_IN_FAILED)).toBeInTheDocument();
    await waitFor(() => expect(usernameField()).toHaveAttribute('aria-invalid', 'true'));
    expect(usernameField()).toHaveFocus();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(staffDb.signedInId).toBeNull();
  });

  it("puts each field's message of a 422 beside its field", async () => {
    server.use(
      http.post(SIGN_IN, () =>
        HttpResponse.json(
          { message: 'Vui lòng nhập mật khẩu', errors: { password: ['Vui lòng nhập mật khẩu'], code: [STAFF_CODE_REQUIRED] } },
          { status: 422 },
        ),
      ),
    );
    const { events } = renderApp('/staff/login');
    await fillSignIn(events);

    expect(await screen.findByText('Vui lòng nhập mật khẩu')).toBeInTheDocument();
    expect(screen.getByText(STAFF_CODE_REQUIRED)).toBeInTheDocument();
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    expect(codeField()).toHaveAttribute('aria-invalid', 'true');
    expect(usernameField()).not.toHaveAttribute('aria-invalid');
  });

  it('says so after too many attempts (429) and waits as long as Retry-After', async () => {
    server.use(
      http.post(SIGN_IN, () =>
        HttpResponse.json({ message: STAFF_TOO_MANY }, { status: 429, headers: { 'Retry-After': '840' } }),
      ),
    );
    const { events } = renderApp('/staff/login');
    await fillSignIn(events);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Đăng nhập không thành công');
    expect(alert).toHaveTextContent(`${STAFF_TOO_MANY} Có thể đăng nhập lại sau 14 phút.`);
    expect(submitButton()).toBeDisabled();
  });

  it('fetches a fresh CSRF cookie and sends the sign-in once more after a 419', async () => {
    let attempts = 0;
    server.use(
      http.post(SIGN_IN, () => {
        attempts += 1;
        if (attempts === 1) return HttpResponse.json({ message: 'CSRF token mismatch.' }, { status: 419 });
        return undefined;
      }),
    );
    const { events } = renderApp('/staff/login');
    await fillSignIn(events);

    expect(await screen.findByRole('heading', { level: 1, name: 'Xin chào, staff-admin' })).toBeInTheDocument();
    expect(attempts).toBe(2);
    expect(staffDb.calls.filter(({ call }) => call === 'GET /api/staff/auth/csrf-cookie')).toHaveLength(2);
  });

  it('sends a member who is signed in already from the sign-in page to the console', async () => {
    staffDb.signedInId = staffDb.members[0]!.id;
    const { router } = renderApp('/staff/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Xin chào, staff-admin' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/staff');
  });
});
