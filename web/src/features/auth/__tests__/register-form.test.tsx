import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { browser } from '@/lib/browser';
import { buildUser } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { PASSWORD_COMMON } from '@/testing/mocks/handlers';
import { server } from '@/testing/mocks/server';
import { act, renderApp, screen, waitFor, within } from '@/testing/test-utils';

const PASSWORD = 'Mk-2024-secret';

type Events = ReturnType<typeof renderApp>['events'];

const nextButton = () => screen.getByRole('button', { name: 'Tiếp tục' });
const submitButton = () => screen.getByRole('button', { name: 'Đăng ký' });
const currentStep = () =>
  within(screen.getByRole('list', { name: 'Các bước đăng ký' }))
    .getAllByRole('listitem')
    .find((item) => item.getAttribute('aria-current') === 'step')?.textContent;
const passwordField = () => screen.getByLabelText(/^Mật khẩu/, { selector: 'input' });
const confirmField = () => screen.getByLabelText(/^Xác nhận mật khẩu/, { selector: 'input' });

async function fillEmailStep(events: Events, email = 'newbie@example.com') {
  await events.type(await screen.findByLabelText(/Địa chỉ email/), email);
  await events.click(screen.getByRole('checkbox', { name: 'Nhận tin tức và ưu đãi từ Kid qua email' }));
  await waitFor(() => expect(nextButton()).toBeEnabled());
  await events.click(nextButton());
}

async function fillDobStep(events: Events, date = '05032000') {
  await events.type(await screen.findByRole('textbox', { name: 'Ngày' }), date);
  await waitFor(() => expect(nextButton()).toBeEnabled());
  await events.click(nextButton());
}

async function fillUsernameStep(events: Events, username = 'newbie_01') {
  await events.type(await screen.findByLabelText(/Tên đăng nhập/), username);
  await waitFor(() => expect(nextButton()).toBeEnabled());
  await events.click(nextButton());
}

async function fillPasswordStep(events: Events, password = PASSWORD) {
  await events.type(await screen.findByLabelText(/^Mật khẩu/, { selector: 'input' }), password);
  await events.type(confirmField(), password);
  await waitFor(() => expect(submitButton()).toBeEnabled());
}

// Four steps of typing per test: more headroom than the default on a busy 2-core machine.
describe('sign-up', { timeout: 30_000 }, () => {
  it('moves on only from a valid step, keeping each step in history', async () => {
    const { events, router } = renderApp('/register');
    const email = await screen.findByLabelText(/Địa chỉ email/);
    expect(currentStep()).toContain('1Email');
    expect(nextButton()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Quay lại' })).toBeNull();

    await events.type(email, 'newbie@');
    expect(nextButton()).toBeDisabled();
    await events.type(email, 'example.com');
    await waitFor(() => expect(nextButton()).toBeEnabled());
    await events.click(nextButton());

    const day = await screen.findByRole('textbox', { name: 'Ngày' });
    expect(day).toHaveFocus();
    expect(currentStep()).toContain('Ngày sinh');
    expect(router.state.location.pathname).toBe('/register');
    expect(router.state.location.state).toMatchObject({ registerStep: 1 });
    expect(nextButton()).toBeDisabled();
    await events.type(day, '0503200');
    expect(nextButton()).toBeDisabled();
    await events.keyboard('0');
    await waitFor(() => expect(nextButton()).toBeEnabled());
    await events.click(nextButton());

    const username = await screen.findByLabelText(/Tên đăng nhập/);
    expect(currentStep()).toContain('Tên đăng nhập');
    await events.type(username, 'new');
    expect(nextButton()).toBeDisabled();
    await events.type(username, 'bie');
    await waitFor(() => expect(nextButton()).toBeEnabled());
    await events.click(nextButton());

    expect(await screen.findByLabelText(/^Mật khẩu/, { selector: 'input' })).toBeInTheDocument();
    expect(currentStep()).toContain('Mật khẩu');
    expect(submitButton()).toBeDisabled();
    expect(router.state.location.state).toMatchObject({ registerStep: 3 });

    // The browser's Back button returns to the previous step with what was typed.
    await act(() => router.navigate(-1));
    expect(await screen.findByLabelText(/Tên đăng nhập/)).toHaveValue('newbie');
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('textbox', { name: 'Năm' })).toHaveValue('2000');
    expect(screen.getByRole('textbox', { name: 'Ngày' })).toHaveValue('05');

    // The form's own Back button does the same.
    await events.click(screen.getByRole('button', { name: 'Quay lại' }));
    expect(await screen.findByLabelText(/Địa chỉ email/)).toHaveValue('newbie@example.com');
    expect(router.state.location.state).toBeNull();
  });

  it('explains what is wrong with each step', async () => {
    const { events } = renderApp('/register');
    const email = await screen.findByLabelText(/Địa chỉ email/);
    await events.click(email);
    await events.tab();
    expect(await screen.findByText('Hãy nhập địa chỉ email của bạn')).toBeInTheDocument();
    await events.type(email, 'not-an-email');
    expect(await screen.findByText('Địa chỉ email không hợp lệ')).toBeInTheDocument();
    await events.clear(email);
    await events.type(email, 'newbie@example.com{Enter}');

    const day = await screen.findByRole('textbox', { name: 'Ngày' });
    const tooYoung = new Date().getFullYear() - 5;
    await events.type(day, `0101${tooYoung}`);
    await events.tab();
    expect(
      await screen.findByText('Bạn phải đủ 13 tuổi trở lên mới có thể đăng ký tài khoản.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Năm' })).toHaveAttribute('aria-invalid', 'true');
    expect(nextButton()).toBeDisabled();
    await events.clear(screen.getByRole('textbox', { name: 'Năm' }));
    expect(await screen.findByText('Bạn cần nhập ngày hợp lệ.')).toBeInTheDocument();
    await events.type(screen.getByRole('textbox', { name: 'Năm' }), '1990{Enter}');

    const username = await screen.findByLabelText(/Tên đăng nhập/);
    await events.type(username, 'abc');
    await events.tab();
    expect(await screen.findByText('Tên đăng nhập phải có từ 4 đến 32 ký tự.')).toBeInTheDocument();
    await events.type(username, 'D');
    expect(
      await screen.findByText('Tên đăng nhập chỉ được sử dụng các chữ cái (a-z), số (0-9) và dấu gạch dưới (_).'),
    ).toBeInTheDocument();
    await events.clear(username);
    expect(await screen.findByText('Hãy chọn một tên đăng nhập.')).toBeInTheDocument();
    await events.type(username, 'abcd{Enter}');

    const password = await screen.findByLabelText(/^Mật khẩu/, { selector: 'input' });
    expect(password).toHaveAttribute('maxlength', '128');
    await events.type(password, 'abc');
    await events.tab();
    expect(await screen.findByText('Mật khẩu phải có tối thiểu 8 ký tự.')).toBeInTheDocument();
    await events.type(password, 'defgh');
    expect(
      await screen.findByText(
        'Mật khẩu quá yếu, hãy chọn mật khẩu mạnh hơn: cần có ít nhất 2 loại ký tự, trong đó có chữ số.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Độ mạnh mật khẩu' })).toHaveAttribute('aria-valuetext', 'Yếu');
    await events.type(password, '1');
    expect(screen.getByRole('meter', { name: 'Độ mạnh mật khẩu' })).toHaveAttribute('aria-valuetext', 'Trung bình');
    await events.type(password, 'A!');
    expect(screen.getByRole('meter', { name: 'Độ mạnh mật khẩu' })).toHaveAttribute('aria-valuetext', 'Rất mạnh');
    expect(screen.getByText('Độ mạnh mật khẩu: Rất mạnh')).toBeInTheDocument();

    await events.click(confirmField());
    await events.tab();
    expect(await screen.findByText('Nhập vào mật khẩu xác nhận.')).toBeInTheDocument();
    await events.type(confirmField(), 'something-else');
    expect(await screen.findByText('Mật khẩu xác nhận không trùng khớp.')).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
    await events.clear(confirmField());
    await events.type(confirmField(), 'abcdefgh1A!');
    await waitFor(() => expect(submitButton()).toBeEnabled());
    expect(screen.queryByText('Mật khẩu xác nhận không trùng khớp.')).toBeNull();
  });

  it('signs up with a captcha token after the CSRF cookie, and lands signed in on /', async () => {
    let body: unknown;
    server.use(
      http.post('/api/auth/register', async ({ request }) => {
        body = await request.clone().json();
        return undefined;
      }),
    );
    const { events, router } = renderApp('/register');
    await fillEmailStep(events);
    await fillDobStep(events);
    await fillUsernameStep(events);
    await fillPasswordStep(events);
    await events.click(submitButton());

    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(within(screen.getByRole('banner')).getByRole('button', { name: /newbie_01/ })).toBeInTheDocument();
    expect(body).toEqual({
      email: 'newbie@example.com',
      receiveNewsletter: true,
      dob: '2000-03-05',
      username: 'newbie_01',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
      gReCaptchaToken: 'dev-captcha',
    });
    const requests = db.requests.filter((r) => r !== 'GET /api/me');
    expect(requests).toEqual(['GET /api/auth/csrf-cookie', 'POST /api/auth/register']);
    // /me is asked again after the sign-up.
    expect(db.requests.lastIndexOf('GET /api/me')).toBeGreaterThan(db.requests.indexOf('POST /api/auth/register'));
  });

  it('returns to the page a guard sent the visitor from', async () => {
    const { events, router } = renderApp('/transactions');
    await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' });
    // The sign-in screen's link to sign-up passes the origin on.
    await events.click(screen.getByRole('link', { name: 'Đăng ký ngay' }));
    await screen.findByRole('heading', { level: 1, name: 'Đăng ký tài khoản' });
    await fillEmailStep(events);
    await fillDobStep(events);
    await fillUsernameStep(events);
    await fillPasswordStep(events);
    await events.click(submitButton());

    expect(await screen.findByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/transactions');
  });

  it('follows next_uri with a full page load', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { events } = renderApp('/register?next_uri=%2Frecharge%2Ffsonline');
    await fillEmailStep(events);
    await fillDobStep(events);
    await fillUsernameStep(events);
    await fillPasswordStep(events);
    await events.click(submitButton());
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${window.location.origin}/recharge/fsonline`));
  });

  it("on 422 shows one form with every field and the server's messages", async () => {
    db.user = buildUser({ username: 'taken_name', email: 'taken@example.com' });
    const { events } = renderApp('/register');
    await fillEmailStep(events, 'taken@example.com');
    await fillDobStep(events);
    await fillUsernameStep(events, 'taken_name');
    await fillPasswordStep(events);
    await events.click(submitButton());

    // Every step's fields at once, and no steps any more.
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Các bước đăng ký' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Tiếp tục' })).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent('Đăng ký không thành công');

    const email = screen.getByLabelText(/Địa chỉ email/, { selector: 'input' });
    const username = screen.getByLabelText(/Tên đăng nhập/, { selector: 'input' });
    expect(email).toHaveValue('taken@example.com');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Địa chỉ email này đã được sử dụng.')).toBeInTheDocument();
    expect(username).toHaveValue('taken_name');
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Tên đăng nhập này đã được sử dụng.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Năm' })).toHaveValue('2000');
    expect(passwordField()).toHaveValue(PASSWORD);
    expect(confirmField()).toHaveValue(PASSWORD);
    expect(screen.getByRole('checkbox', { name: 'Nhận tin tức và ưu đãi từ Kid qua email' })).toBeChecked();

    // Editing a field clears the server's message about it.
    await events.clear(username);
    await events.type(username, 'fresh_name');
    await waitFor(() => expect(screen.queryByText('Tên đăng nhập này đã được sử dụng.')).toBeNull());
    expect(screen.getByText('Địa chỉ email này đã được sử dụng.')).toBeInTheDocument();
    await events.clear(email);
    await events.type(email, 'fresh@example.com');

    await events.click(submitButton());
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(db.user.username).toBe('fresh_name');
  });

  it("shows the server's refusal of a common password under the password field", async () => {
    const { events } = renderApp('/register');
    await fillEmailStep(events);
    await fillDobStep(events);
    await fillUsernameStep(events);
    // Medium enough for the form's own rules.
    await fillPasswordStep(events, 'Password@123');
    await events.click(submitButton());

    const message = await screen.findByText(PASSWORD_COMMON);
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    // Under the password field, not the confirmation's.
    expect(message.closest('[role="group"]')).toContainElement(passwordField());
    expect(confirmField()).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Hãy kiểm tra lại các thông tin bên dưới.');
    expect(db.signedIn).toBe(false);

    // Another password signs up.
    await events.clear(passwordField());
    await events.type(passwordField(), PASSWORD);
    await events.clear(confirmField());
    await events.type(confirmField(), PASSWORD);
    await waitFor(() => expect(screen.queryByText(PASSWORD_COMMON)).toBeNull());
    await events.click(submitButton());
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
  });

  it('shows a refused captcha in the alert', async () => {
    server.use(
      http.post('/api/auth/register', () =>
        HttpResponse.json(
          {
            message: 'Không xác minh được bạn không phải là người máy, hãy thử lại.',
            errors: { gReCaptchaToken: ['Không xác minh được bạn không phải là người máy, hãy thử lại.'] },
          },
          { status: 422 },
        ),
      ),
    );
    const { events } = renderApp('/register');
    await fillEmailStep(events);
    await fillDobStep(events);
    await fillUsernameStep(events);
    await fillPasswordStep(events);
    await events.click(submitButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Không xác minh được bạn không phải là người máy, hãy thử lại.',
    );
  });

  it('keeps the steps and shows the message when the server fails otherwise', async () => {
    server.use(
      http.post('/api/auth/register', () =>
        HttpResponse.json({ message: 'Dịch vụ tạm thời gián đoạn, xin thử lại sau.' }, { status: 503 }),
      ),
    );
    const { events } = renderApp('/register');
    await fillEmailStep(events);
    await fillDobStep(events);
    await fillUsernameStep(events);
    await fillPasswordStep(events);
    await events.click(submitButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('Dịch vụ tạm thời gián đoạn, xin thử lại sau.');
    expect(screen.getByRole('list', { name: 'Các bước đăng ký' })).toBeInTheDocument();
    expect(currentStep()).toContain('Mật khẩu');
    expect(db.signedIn).toBe(false);
  });

  it('starts again from the first step whose fields are missing', async () => {
    const { router } = renderApp('/register');
    await screen.findByLabelText(/Địa chỉ email/);
    await act(() => router.navigate('/register', { state: { registerStep: 3 } }));
    expect(await screen.findByLabelText(/Địa chỉ email/)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.state).toMatchObject({ registerStep: 0 }));
  });
});
