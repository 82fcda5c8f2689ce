import { beforeEach, describe, expect, it } from 'vitest';

import {
  NEW_STAFF_PASSWORD,
  NEW_STAFF_SECRET,
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

async function openCreate(events: ReturnType<typeof renderApp>['events']) {
  await events.click(await screen.findByRole('button', { name: 'Thêm nhân viên' }));
  return screen.findByRole('dialog', { name: 'Thêm nhân viên' });
}

describe('staff management', () => {
  it('lists every member with role, status and times in Vietnam time, and offers nothing on the own row', async () => {
    staffDb.members[1] = { ...staffDb.members[1]!, disabled: true, signedInAt: '2026-11-27T17:30:05Z' };
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
    expect(memberRow('staff-viewer')).toHaveTextContent('Chưa đăng nhập');
  });

  it('creates a member and shows their password and secret once, with a QR code and a warning', async () => {
    const { events } = renderApp('/staff/staff');
    const form = await openCreate(events);
    await events.type(within(form).getByRole('textbox', { name: /Tên đăng nhập/ }), 'staff-new');
    await events.selectOptions(within(form).getByRole('combobox', { name: /Vai trò/ }), 'Hỗ trợ');
    await events.click(within(form).getByRole('button', { name: 'Tạo tài khoản' }));

    const created = await screen.findByRole('alertdialog', { name: 'Đã tạo tài khoản staff-new' });
    expect(within(created).getByText('Mật khẩu và khóa bí mật chỉ hiển thị một lần duy nhất')).toBeInTheDocument();
    expect(within(created).getByTestId('staff-password')).toHaveTextContent(NEW_STAFF_PASSWORD);
    expect(within(created).getByTestId('staff-totp-secret')).toHaveTextContent(NEW_STAFF_SECRET);
    expect(
      within(created).getByRole('img', { name: 'Mã QR để thêm tài khoản nhân viên staff-new vào ứng dụng xác thực' }),
    ).toBeInTheDocument();
    expect(within(created).getByRole('button', { name: 'Sao chép mật khẩu' })).toBeInTheDocument();
    expect(within(created).getByRole('button', { name: 'Sao chép khóa bí mật' })).toBeInTheDocument();
    expect(staffDb.calls.find(({ call }) => call === 'POST /api/staff/staff')?.body).toEqual({
      username: 'staff-new',
      role: 'support',
    });

    // Escape does not lose them; only 'Tôi đã lưu thông tin' closes, and they are gone for good.
    await events.keyboard('{Escape}');
    expect(created).toBeInTheDocument();
    await events.click(within(created).getByRole('button', { name: 'Tôi đã lưu thông tin' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByText(NEW_STAFF_PASSWORD)).toBeNull();
    expect(screen.queryByText(NEW_STAFF_SECRET)).toBeNull();
    await waitFor(() => expect(memberRow('staff-new')).toHaveTextContent('Hỗ trợ'));

    // A new member later starts from an empty form, and nothing of the last one shows.
    const again = await openCreate(events);
    expect(within(again).getByRole('textbox', { name: /Tên đăng nhập/ })).toHaveValue('');
    expect(screen.queryByText(NEW_STAFF_PASSWORD)).toBeNull();
  });

  it("puts the server's refusal of the username beside it", async () => {
    const { events } = renderApp('/staff/staff');
    const form = await openCreate(events);
    const username = within(form).getByRole('textbox', { name: /Tên đăng nhập/ });
    await events.type(username, 'staff-viewer');
    await events.click(within(form).getByRole('button', { name: 'Tạo tài khoản' }));

    expect(await within(form).findByText(STAFF_USERNAME_TAKEN)).toBeInTheDocument();
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('checks the username before sending it', async () => {
    const { events } = renderApp('/staff/staff');
    const form = await openCreate(events);
    await events.type(within(form).getByRole('textbox', { name: /Tên đăng nhập/ }), 'Ab');
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

  it('on a phone lists the members as blocks with their actions', async () => {
    viewportWidth(390);
    renderApp('/staff/staff');
    const list = await screen.findByRole('list', { name: 'Danh sách nhân viên' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    expect(screen.getByRole('group', { name: 'Thao tác với staff-viewer' })).toBeInTheDocument();
  });
});
