import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { server } from '@/testing/mocks/server';
import {
  enrolmentToken,
  NEW_STAFF_SECRET,
  STAFF_EMAIL_TAKEN,
  STAFF_NO_EMAIL,
  STAFF_PASSWORD,
  STAFF_REAUTH_NEEDED,
  STAFF_USERNAME_TAKEN,
  signInStaff,
  staffDb,
} from '@/testing/mocks/staff-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { viewportWidth } from '@/testing/viewport';

beforeEach(() => {
  viewportWidth(1280);
  signInStaff('staff-admin');
});

function memberRow(username: string): HTMLElement {
  const row = screen.getAllByRole('row').find((each) => each.dataset.member === username);
  if (!row) throw new Error(`no row for ${username}`);
  return row;
}

type Events = ReturnType<typeof renderApp>['events'];

async function openCreate(events: Events) {
  await events.click(await screen.findByRole('button', { name: 'Thêm nhân viên' }));
  return screen.findByRole('dialog', { name: 'Thêm nhân viên' });
}

const emailField = (form: HTMLElement) => within(form).getByRole('textbox', { name: /Địa chỉ email/ });

async function openReset(events: Events, username: string) {
  const actions = await screen.findByRole('group', { name: `Thao tác với ${username}` });
  await events.click(within(actions).getByRole('button', { name: 'Đặt lại đăng nhập' }));
  return screen.findByRole('alertdialog', { name: `Đặt lại thông tin đăng nhập của ${username}?` });
}

const resets = () => staffDb.calls.filter(({ call }) => /^POST \/api\/staff\/staff\/[^/]+\/reset-credentials$/.test(call));

describe('staff management', () => {
  it('lists every member with email, role, status and times in Vietnam time, and offers nothing on the own row', async () => {
    staffDb.members[1] = { ...staffDb.members[1]!, disabled: true, signedInAt: '2026-11-27T17:30:05Z' };
    staffDb.members[3] = { ...staffDb.members[3]!, enrolmentPending: true };
    renderApp('/staff/staff');

    const table = await screen.findByRole('table', { name: 'Danh sách nhân viên' });
    expect(within(table).getAllByRole('row')).toHaveLength(5);
    const own = memberRow('staff-admin');
    expect(own).toHaveTextContent('Bạn');
    expect(own).toHaveTextContent('Quản trị');
    expect(within(own).queryByRole('button')).toBeNull();
    const finance = memberRow('staff-finance');
    expect(finance).toHaveTextContent('Tài chính');
    expect(finance).toHaveTextContent('Đã khóa');
    // 17:30 UTC is half past midnight the next day in Vietnam.
    expect(finance).toHaveTextContent('28/11/2026 00:30');
    expect(finance).toHaveTextContent('Tạo lúc 01/11/2026 09:00');
    expect(within(finance).getByRole('button', { name: 'Mở khóa' })).toBeInTheDocument();
    expect(within(finance).getByText('staff-finance@staff.kid.test')).toBeInTheDocument();
    expect(within(finance).getByRole('button', { name: 'Đặt lại đăng nhập' })).toBeInTheDocument();
    expect(finance).not.toHaveTextContent('Chờ đăng ký');
    const viewer = memberRow('staff-viewer');
    expect(viewer).toHaveTextContent('Chưa đăng nhập');
    expect(viewer).toHaveTextContent('Chờ đăng ký');
  });

  it('creates a member with their email and says where the enrolment link went, never showing a credential', async () => {
    const { events } = renderApp('/staff/staff');
    const form = await openCreate(events);
    await events.type(within(form).getByRole('textbox', { name: /Tên đăng nhập/ }), 'staff-new');
    await events.selectOptions(within(form).getByRole('combobox', { name: /Vai trò/ }), 'Hỗ trợ');
    expect(emailField(form)).toHaveAttribute('type', 'email');
    expect(emailField(form)).toHaveAttribute('maxlength', '254');
    await events.type(emailField(form), ' new@staff.kid.test ');
    await events.click(within(form).getByRole('button', { name: 'Tạo tài khoản' }));

    expect(
      await screen.findByText(
        'Đã tạo tài khoản staff-new. Đường dẫn đăng ký đã được gửi tới new@staff.kid.test (có hiệu lực 24 giờ, dùng một lần).',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(form).not.toBeInTheDocument());
    expect(staffDb.calls.find(({ call }) => call === 'POST /api/staff/staff')?.body).toEqual({
      username: 'staff-new',
      role: 'support',
      email: 'new@staff.kid.test',
    });
    // The admin is shown no password, secret or QR code: the member sets their own.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByTestId('staff-totp-secret')).toBeNull();
    expect(screen.queryByText(NEW_STAFF_SECRET)).toBeNull();
    expect(screen.queryByRole('img', { name: /Mã QR/ })).toBeNull();
    await waitFor(() => expect(memberRow('staff-new')).toHaveTextContent('Chờ đăng ký'));
    expect(memberRow('staff-new')).toHaveTextContent('new@staff.kid.test');
    expect(memberRow('staff-new')).toHaveTextContent('Hỗ trợ');
    expect(staffDb.enrolments.map(({ token }) => token)).toEqual([enrolmentToken('staff-new')]);

    // A new member later starts from an empty form.
    const again = await openCreate(events);
    expect(within(again).getByRole('textbox', { name: /Tên đăng nhập/ })).toHaveValue('');
    expect(emailField(again)).toHaveValue('');
  });

  it('asks for the email and checks it before sending', async () => {
    const { events } = renderApp('/staff/staff');
    const form = await openCreate(events);
    await events.type(within(form).getByRole('textbox', { name: /Tên đăng nhập/ }), 'staff-new');
    await events.click(within(form).getByRole('button', { name: 'Tạo tài khoản' }));
    expect(await within(form).findByText('Vui lòng nhập địa chỉ email')).toBeInTheDocument();
    expect(emailField(form)).toHaveAttribute('aria-invalid', 'true');

    await events.type(emailField(form), 'not-an-address');
    await events.click(within(form).getByRole('button', { name: 'Tạo tài khoản' }));
    expect(await within(form).findByText('Địa chỉ email không hợp lệ')).toBeInTheDocument();
    expect(staffDb.calls.map(({ call }) => call)).not.toContain('POST /api/staff/staff');
  });

  it("puts the server's refusal of the email beside it", async () => {
    const { events } = renderApp('/staff/staff');
    const form = await openCreate(events);
    await events.type(within(form).getByRole('textbox', { name: /Tên đăng nhập/ }), 'staff-new');
    await events.type(emailField(form), 'staff-viewer@staff.kid.test');
    await events.click(within(form).getByRole('button', { name: 'Tạo tài khoản' }));

    expect(await within(form).findByText(STAFF_EMAIL_TAKEN)).toBeInTheDocument();
    expect(emailField(form)).toHaveAttribute('aria-invalid', 'true');
    expect(staffDb.members.map(({ username }) => username)).not.toContain('staff-new');
  });

  it("puts the server's refusal of the username beside it", async () => {
    const { events } = renderApp('/staff/staff');
    const form = await openCreate(events);
    const username = within(form).getByRole('textbox', { name: /Tên đăng nhập/ });
    await events.type(username, 'staff-viewer');
    await events.type(emailField(form), 'other@staff.kid.test');
    await events.click(within(form).getByRole('button', { name: 'Tạo tài khoản' }));

    expect(await within(form).findByText(STAFF_USERNAME_TAKEN)).toBeInTheDocument();
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('checks the username before sending it', async () => {
    const { events } = renderApp('/staff/staff');
    const form = await openCreate(events);
    await events.type(within(form).getByRole('textbox', { name: /Tên đăng nhập/ }), 'Ab');
    await events.type(emailField(form), 'ab@staff.kid.test');
    await events.click(within(form).getByRole('button', { name: 'Tạo tài khoản' }));

    expect(
      await within(form).findByText(
        'Tên đăng nhập gồm 3 đến 32 ký tự: chữ thường, chữ số, dấu gạch ngang hoặc gạch dưới.',
      ),
    ).toBeInTheDocument();
    expect(staffDb.calls.map(({ call }) => call)).not.toContain('POST /api/staff/staff');
  });

  it('disables a member after asking, and enables them again', async () => {
    const { events } = renderApp('/staff/staff');
    await screen.findByRole('table', { name: 'Danh sách nhân viên' });
    await events.click(within(memberRow('staff-support')).getByRole('button', { name: 'Khóa' }));

    const confirm = await screen.findByRole('alertdialog', { name: 'Khóa tài khoản staff-support?' });
    expect(confirm).toHaveTextContent('không đăng nhập được cho đến khi được mở khóa');
    await events.click(within(confirm).getByRole('button', { name: 'Khóa tài khoản' }));

    expect(await screen.findByText('Đã khóa tài khoản staff-support.')).toBeInTheDocument();
    await waitFor(() => expect(memberRow('staff-support')).toHaveTextContent('Đã khóa'));
    expect(staffDb.calls.filter(({ call }) => call.startsWith('PATCH')).map(({ body }) => body)).toEqual([
      { role: 'support', disabled: true },
    ]);

    await events.click(within(memberRow('staff-support')).getByRole('button', { name: 'Mở khóa' }));
    expect(await screen.findByText('Đã mở khóa tài khoản staff-support.')).toBeInTheDocument();
    await waitFor(() => expect(memberRow('staff-support')).toHaveTextContent('Đang hoạt động'));
  });

  it("resets a member's credentials after asking, re-authenticating when the server asks for it", async () => {
    let refused = 0;
    server.use(
      http.post('/api/staff/staff/:id/reset-credentials', ({ request }) => {
        if (refused > 0) return undefined;
        refused += 1;
        staffDb.calls.push({ call: `POST ${new URL(request.url).pathname}` });
        return HttpResponse.json({ message: STAFF_REAUTH_NEEDED, code: 'reauth_required' }, { status: 403 });
      }),
    );
    const { events } = renderApp('/staff/staff');
    const confirm = await openReset(events, 'staff-support');
    expect(confirm).toHaveTextContent(
      'Mật khẩu và ứng dụng xác thực hiện tại của nhân viên sẽ ngừng hoạt động, mọi phiên đăng nhập của họ kết thúc, và một đường dẫn đăng ký mới được gửi tới email của họ.',
    );
    expect(within(confirm).getByRole('button', { name: 'Hủy' })).toBeInTheDocument();
    await events.click(within(confirm).getByRole('button', { name: 'Đặt lại' }));

    const reauth = await screen.findByRole('dialog', { name: 'Xác thực lại' });
    expect(within(reauth).getByText(STAFF_REAUTH_NEEDED)).toBeInTheDocument();
    expect(staffDb.members.find(({ username }) => username === 'staff-support')?.enrolmentPending).toBe(false);
    await events.type(within(reauth).getByLabelText(/Mật khẩu hoặc mã xác thực/, { selector: 'input' }), STAFF_PASSWORD);
    await events.click(within(reauth).getByRole('button', { name: 'Xác nhận' }));

    expect(await screen.findByText('Đã gửi đường dẫn đăng ký mới tới staff-support@staff.kid.test.')).toBeInTheDocument();
    await waitFor(() => expect(confirm).not.toBeInTheDocument());
    await waitFor(() => expect(memberRow('staff-support')).toHaveTextContent('Chờ đăng ký'));
    expect(resets()).toHaveLength(2);
    expect(resets()[1]?.xsrf).toBe('staff-xsrf-token');
    expect(staffDb.enrolments.map(({ token }) => token)).toEqual([enrolmentToken('staff-support')]);
  });

  it("shows the server's refusal of a reset in its dialog", async () => {
    staffDb.members[2] = { ...staffDb.members[2]!, email: null };
    const { events } = renderApp('/staff/staff');
    const confirm = await openReset(events, 'staff-support');
    await events.click(within(confirm).getByRole('button', { name: 'Đặt lại' }));

    const alert = await within(confirm).findByRole('alert');
    expect(alert).toHaveTextContent('Không đặt lại được thông tin đăng nhập');
    expect(alert).toHaveTextContent(STAFF_NO_EMAIL);
    expect(staffDb.members[2]?.enrolmentPending).toBe(false);
    expect(staffDb.enrolments).toEqual([]);
  });

  it('on a phone lists the members as blocks with their actions', async () => {
    viewportWidth(390);
    renderApp('/staff/staff');
    const list = await screen.findByRole('list', { name: 'Danh sách nhân viên' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    const actions = screen.getByRole('group', { name: 'Thao tác với staff-viewer' });
    expect(within(actions).getByRole('button', { name: 'Đặt lại đăng nhập' })).toBeInTheDocument();
    expect(within(list).getByText('staff-viewer@staff.kid.test')).toBeInTheDocument();
  });
});
