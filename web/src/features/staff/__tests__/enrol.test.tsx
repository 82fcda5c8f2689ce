import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { server } from '@/testing/mocks/server';
import {
  buildStaff,
  enrolmentToken,
  NEW_STAFF_SECRET,
  openEnrolment,
  STAFF_CODES,
  STAFF_ENROL_CODE_WRONG,
  STAFF_ENROLMENT_INVALID,
  staffDb,
} from '@/testing/mocks/staff-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { StaffBody } from '@/types/api-schema';

import { formatVietnamTime } from '../utils/time';

const PASSWORD = 'Enrol-2026#Aa9x';
const CHECK = 'POST /api/staff/enrolment/check';
const ENROL = 'POST /api/staff/enrolment';

/** The address the browser was at before the test: the file shares its jsdom with others. */
let before = '';

beforeEach(() => {
  before = `${window.location.pathname}${window.location.search}${window.location.hash}`;
});

afterEach(() => {
  window.history.replaceState(null, '', before);
});

/** A member waiting for their enrolment, with their link open. */
function newMember(): StaffBody {
  const member = buildStaff({ username: 'staff-new', role: 'support', enrolmentPending: true });
  staffDb.members.push(member);
  openEnrolment(member);
  return member;
}

/** Opens the mailed link: /staff/enrol with the token in the fragment, as the browser has it. */
function openLink(token: string | null, options: Parameters<typeof renderApp>[1] = {}) {
  window.history.replaceState(null, '', token === null ? '/staff/enrol' : `/staff/enrol#${token}`);
  return renderApp('/staff/enrol', options);
}

const passwordField = () => screen.getByLabelText(/^Mật khẩu mới/, { selector: 'input' });
const confirmField = () => screen.getByLabelText(/^Nhập lại mật khẩu/, { selector: 'input' });
const codeField = () => screen.getByRole('textbox', { name: /Mã xác thực/ });
const submit = () => screen.getByRole('button', { name: 'Hoàn tất đăng ký' });
const calls = (call: string) => staffDb.calls.filter((each) => each.call === call);

type Events = ReturnType<typeof renderApp>['events'];

type Fill = { password?: string; confirm?: string; code?: string };

/** Types what is given (the password twice, and the first app code, unless told) and submits. */
async function fill(events: Events, { password = PASSWORD, confirm = password, code = STAFF_CODES[0] }: Fill = {}) {
  if (password) await events.type(passwordField(), password);
  if (confirm) await events.type(confirmField(), confirm);
  if (code) await events.type(codeField(), code);
  await events.click(submit());
}

describe('staff enrolment link', () => {
  it('shows the app secret and its QR code, sets the password, then leads to the sign-in with a notice', async () => {
    const member = newMember();
    // As in development: effects run twice, and the token read once must outlive that.
    const { events, router } = openLink(enrolmentToken('staff-new'), { strict: true });

    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng ký tài khoản nhân viên' })).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Xin chào staff-new. Thêm tài khoản vào ứng dụng xác thực bằng mã QR hoặc khóa bí mật dưới đây, rồi đặt mật khẩu của bạn.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('staff-totp-secret')).toHaveTextContent(NEW_STAFF_SECRET);
    expect(
      screen.getByRole('img', { name: 'Mã QR để thêm tài khoản nhân viên staff-new vào ứng dụng xác thực' }),
    ).toBeInTheDocument();
    const { expiresAt } = staffDb.enrolments[0]!;
    expect(
      screen.getByText(`Đường dẫn có hiệu lực đến ${formatVietnamTime(expiresAt, { seconds: false })}`),
    ).toBeInTheDocument();
    // The token left the address bar once read; the page is still the enrolment's.
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/staff/enrol');
    expect(calls(CHECK).map(({ body, xsrf }) => [body, xsrf])).toEqual([
      [{ token: enrolmentToken('staff-new') }, 'staff-xsrf-token'],
    ]);
    expect(codeField()).toHaveAttribute('inputmode', 'numeric');
    expect(codeField()).toHaveAttribute('autocomplete', 'one-time-code');

    await fill(events, { code: `${STAFF_CODES[0].slice(0, 3)} ${STAFF_CODES[0].slice(3)}` });

    expect(
      await screen.findByText('Đăng ký xong. Hãy đăng nhập bằng mật khẩu mới và mã từ ứng dụng xác thực.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/staff/login');
    expect(calls(ENROL).map(({ body, xsrf }) => [body, xsrf])).toEqual([
      [
        { token: enrolmentToken('staff-new'), password: PASSWORD, passwordConfirm: PASSWORD, code: STAFF_CODES[0] },
        'staff-xsrf-token',
      ],
    ]);
    const callNames = staffDb.calls.map(({ call }) => call);
    expect(callNames.lastIndexOf('GET /api/staff/auth/csrf-cookie')).toBeLessThan(callNames.indexOf(ENROL));
    expect(staffDb.members.find(({ id }) => id === member.id)?.enrolmentPending).toBe(false);
    expect(staffDb.enrolments).toEqual([]);
  });

  it('says what each field lacks before sending anything', async () => {
    newMember();
    const { events } = openLink(enrolmentToken('staff-new'));
    await screen.findByTestId('staff-totp-secret');

    await events.click(submit());
    expect(await screen.findByText('Vui lòng nhập mật khẩu')).toBeInTheDocument();
    expect(screen.getByText('Vui lòng nhập lại mật khẩu')).toBeInTheDocument();
    expect(screen.getByText('Vui lòng nhập mã từ ứng dụng xác thực')).toBeInTheDocument();
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    expect(confirmField()).toHaveAttribute('aria-invalid', 'true');
    expect(codeField()).toHaveAttribute('aria-invalid', 'true');

    await fill(events, { confirm: `${PASSWORD}x`, code: '12345' });
    expect(await screen.findByText('Mật khẩu nhập lại không khớp')).toBeInTheDocument();
    expect(screen.getByText('Mã xác thực gồm 6 chữ số')).toBeInTheDocument();
    expect(calls(ENROL)).toHaveLength(0);
  });

  it('asks for a long password with every kind of character', async () => {
    newMember();
    const { events } = openLink(enrolmentToken('staff-new'));
    await screen.findByTestId('staff-totp-secret');

    await fill(events, { password: 'Ab1#short' });
    expect(await screen.findByText('Mật khẩu phải có tối thiểu 12 ký tự')).toBeInTheDocument();

    await events.clear(passwordField());
    await events.type(passwordField(), 'alllowercase-12345');
    await events.clear(confirmField());
    await events.type(confirmField(), 'alllowercase-12345');
    await events.click(submit());
    expect(
      await screen.findByText(
        'Mật khẩu chưa đủ mạnh, hãy chọn mật khẩu mạnh hơn: cần có đủ chữ thường, chữ hoa, chữ số và ký hiệu.',
      ),
    ).toBeInTheDocument();
    expect(calls(ENROL)).toHaveLength(0);
  });

  it("puts the server's refusals beside their fields", async () => {
    newMember();
    const { events } = openLink(enrolmentToken('staff-new'));
    await screen.findByTestId('staff-totp-secret');

    // A code the offered secret does not give now.
    await fill(events, { code: '999999' });
    expect(await screen.findByText(STAFF_ENROL_CODE_WRONG)).toBeInTheDocument();
    expect(codeField()).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(codeField()).toHaveFocus());

    const personal = 'Mật khẩu không được chứa tên đăng nhập hoặc email của bạn';
    server.use(
      http.post('/api/staff/enrolment', () =>
        HttpResponse.json({ message: personal, errors: { password: [personal] } }, { status: 422 }),
      ),
    );
    await events.clear(codeField());
    await events.type(codeField(), STAFF_CODES[1]);
    await events.click(submit());
    expect(await screen.findByText(personal)).toBeInTheDocument();
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(staffDb.members.find(({ username }) => username === 'staff-new')?.enrolmentPending).toBe(true);
  });

  it("shows the server's word and the way to the sign-in for a link it does not know", async () => {
    const { router } = openLink('used-or-expired');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(STAFF_ENROLMENT_INVALID);
    expect(screen.getByRole('link', { name: 'Về trang đăng nhập' })).toHaveAttribute('href', '/staff/login');
    expect(screen.queryByTestId('staff-totp-secret')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Hoàn tất đăng ký' })).toBeNull();
    expect(window.location.hash).toBe('');
    expect(router.state.location.pathname).toBe('/staff/enrol');
  });

  it('says the same without a token, asking nothing', async () => {
    openLink(null);

    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng ký tài khoản nhân viên' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(STAFF_ENROLMENT_INVALID);
    expect(screen.getByRole('link', { name: 'Về trang đăng nhập' })).toHaveAttribute('href', '/staff/login');
    expect(calls(CHECK)).toHaveLength(0);
  });

  it('turns into the invalid-link view when the link was used up meanwhile', async () => {
    newMember();
    const { events } = openLink(enrolmentToken('staff-new'));
    await screen.findByTestId('staff-totp-secret');
    staffDb.enrolments = [];

    await fill(events);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(STAFF_ENROLMENT_INVALID);
    expect(within(alert.parentElement!).getByRole('link', { name: 'Về trang đăng nhập' })).toBeInTheDocument();
    expect(screen.queryByTestId('staff-totp-secret')).toBeNull();
  });
});
