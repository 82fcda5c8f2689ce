import { beforeEach, describe, expect, it } from 'vitest';

import { buildStaffAction, signInStaff, staffDb } from '@/testing/mocks/staff-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

import { formatVietnamTime } from '../utils/time';

const SUPPORT = 'staff:0193f1c2-5aff-7000-8000-000000000003';

/** `count` sign-ins a minute apart, the newest at 10:59 UTC on 27 November. */
/**
 * `count` sign-ins, newest first, two at each instant but the first (as one transaction records
 * several actions): a page of 50 ends between the two of an instant.
 */
function signIns(count: number) {
  return Array.from({ length: count }, (_, index) =>
    buildStaffAction({
      id: `action-${String(999 - index).padStart(3, '0')}`,
      occurredAt: new Date(Date.UTC(2026, 10, 27, 10, 59 - Math.floor((index + 1) / 2))).toISOString(),
    }),
  );
}

const entries = () => within(screen.getByRole('list', { name: 'Nhật ký thao tác' })).getAllByRole('listitem');
/** The queries GET /staff/audit was sent, oldest first. */
const auditQueries = () =>
  staffDb.calls
    .filter(({ call }) => call.startsWith('GET /api/staff/audit'))
    .map(({ call }) => Object.fromEntries(new URL(call.slice(4), window.location.origin).searchParams));

beforeEach(() => signInStaff('staff-viewer'));

describe('audit log', () => {
  it('shows a time in Vietnam time, seconds included, whatever the browser’s zone', () => {
    expect(formatVietnamTime('2026-11-27T17:30:05Z')).toBe('28/11/2026 00:30:05');
    expect(formatVietnamTime('2026-11-27T10:00:00+07:00')).toBe('27/11/2026 10:00:00');
    expect(formatVietnamTime(null)).toBe('');
    expect(formatVietnamTime('not a time')).toBe('not a time');
  });

  it('shows who did what, when, on what, and the change before and after', async () => {
    staffDb.actions = [
      buildStaffAction({
        occurredAt: '2026-11-27T17:30:05Z',
        action: 'staff.update',
        subject: SUPPORT,
        before: { role: 'support', disabled: false },
        after: { role: 'finance', disabled: false },
      }),
      buildStaffAction({ occurredAt: '2026-11-27T17:00:00Z', action: 'transfer.match', subject: 'transfer:42', service: 'payment', before: {}, after: { playerId: 'p-1' } }),
      buildStaffAction({ occurredAt: '2026-11-27T16:00:00Z', before: null as never, after: null as never }),
    ];
    renderApp('/staff/audit');

    expect(await screen.findByRole('heading', { level: 1, name: 'Nhật ký thao tác' })).toBeInTheDocument();
    const [update, unknown, signIn] = await waitFor(() => {
      const items = entries();
      expect(items).toHaveLength(3);
      return items;
    });
    expect(update).toHaveTextContent('Đổi vai trò hoặc trạng thái nhân viên');
    expect(update).toHaveTextContent('staff.update');
    expect(update).toHaveTextContent('28/11/2026 00:30:05');
    expect(update).toHaveTextContent('staff-admin');
    expect(update).toHaveTextContent('Quản trị');
    expect(update).toHaveTextContent('113.161.52.7');
    expect(update).toHaveTextContent('identity');
    const changes = within(update!).getByRole('table', { name: 'Dữ liệu thay đổi' });
    const [, role, disabled] = within(changes).getAllByRole('row');
    expect(within(role!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['role', 'support', 'finance']);
    expect(within(disabled!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['disabled', 'false', 'false']);
    // An action the console has no name for yet shows by its code; a field only after, with '—' before.
    expect(unknown).toHaveTextContent('transfer.match');
    expect(within(unknown!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['playerId', '—', 'p-1']);
    // A sign-in changed nothing.
    expect(signIn).toHaveTextContent('Đăng nhập');
    expect(within(signIn!).queryByRole('table')).toBeNull();
  });

  it("pages with 'Xem thêm', asking for the actions before the last one shown", async () => {
    staffDb.actions = signIns(60);
    const { events } = renderApp('/staff/audit');

    await waitFor(() => expect(entries()).toHaveLength(50));
    expect(screen.getByText('Đang hiển thị 50 thao tác.')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Xem thêm' }));

    await waitFor(() => expect(entries()).toHaveLength(60));
    expect(screen.getByText('Đã hiển thị tất cả 60 thao tác.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Xem thêm' })).toBeNull();
    const last = staffDb.actions[49]!;
    expect(auditQueries()).toEqual([{ limit: '50' }, { limit: '50', before: last.occurredAt, beforeId: last.id }]);
  });

  it('filters by subject through the query string, and links the CSV download to the same filter', async () => {
    staffDb.actions = [
      buildStaffAction({ action: 'staff.create', subject: SUPPORT }),
      buildStaffAction({ action: 'staff.sign_in', subject: 'staff:someone-else' }),
    ];
    const { events, router } = renderApp('/staff/audit');
    await waitFor(() => expect(entries()).toHaveLength(2));
    expect(screen.getByRole('link', { name: 'Tải CSV' })).toHaveAttribute('href', '/api/staff/audit.csv');

    await events.type(screen.getByRole('textbox', { name: 'Đối tượng' }), SUPPORT);
    await events.click(screen.getByRole('button', { name: 'Lọc' }));

    await waitFor(() => expect(router.state.location.search).toBe(`?subject=${encodeURIComponent(SUPPORT)}`));
    await waitFor(() => expect(entries()).toHaveLength(1));
    expect(entries()[0]).toHaveTextContent('Tạo tài khoản nhân viên');
    expect(auditQueries()).toContainEqual({ limit: '50', subject: SUPPORT });
    expect(screen.getByRole('link', { name: 'Tải CSV' })).toHaveAttribute(
      'href',
      `/api/staff/audit.csv?subject=${encodeURIComponent(SUPPORT)}`,
    );

    await events.click(screen.getByRole('button', { name: 'Bỏ lọc' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(entries()).toHaveLength(2));
  });

  it("filters by a row's subject when it is clicked", async () => {
    staffDb.actions = [
      buildStaffAction({ action: 'staff.create', subject: SUPPORT }),
      buildStaffAction({ action: 'staff.sign_in', subject: 'staff:someone-else' }),
    ];
    const { events, router } = renderApp('/staff/audit');
    await waitFor(() => expect(entries()).toHaveLength(2));
    await events.click(within(entries()[0]!).getByRole('link', { name: SUPPORT }));

    await waitFor(() => expect(router.state.location.search).toBe(`?subject=${encodeURIComponent(SUPPORT)}`));
    await waitFor(() => expect(entries()).toHaveLength(1));
    expect(screen.getByRole('textbox', { name: 'Đối tượng' })).toHaveValue(SUPPORT);
  });

  it("names a member's enrolment and the reset of their credentials", async () => {
    staffDb.actions = [
      buildStaffAction({ action: 'staff.reset_credentials', subject: SUPPORT, before: null as never, after: { enrolmentSentTo: 'support@staff.kid.test' } }),
      buildStaffAction({ action: 'staff.enrol', subject: SUPPORT, staffUsername: 'staff-support', staffRole: 'support' }),
    ];
    renderApp('/staff/audit');

    const [reset, enrol] = await waitFor(() => {
      const items = entries();
      expect(items).toHaveLength(2);
      return items;
    });
    expect(reset).toHaveTextContent('Đặt lại thông tin đăng nhập nhân viên');
    expect(reset).toHaveTextContent('staff.reset_credentials');
    expect(within(reset!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'enrolmentSentTo',
      '—',
      'support@staff.kid.test',
    ]);
    expect(enrol).toHaveTextContent('Nhân viên hoàn tất đăng ký');
    expect(enrol).toHaveTextContent('staff-support');
  });

  it('says so when there is nothing to show', async () => {
    const { events } = renderApp('/staff/audit?subject=player%3Anobody');
    expect(await screen.findByText('Không có thao tác nào về đối tượng này.')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Bỏ lọc' }));
    expect(await screen.findByText('Chưa có thao tác nào.')).toBeInTheDocument();
  });
});
