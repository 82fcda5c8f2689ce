import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/mocks/server';
import { STAFF_FORBIDDEN, signInStaff, staffDb } from '@/testing/mocks/staff-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { viewportWidth } from '@/testing/viewport';

import { navItemsFor, sectionsFor } from '../config/nav-items';

const navLinks = () =>
  within(screen.getAllByRole('navigation', { name: 'Bảng điều khiển' })[0]!)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);

describe('console navigation by role', () => {
  it('shows staff management to admins only', () => {
    const keys = (role: string) => navItemsFor(role).map(({ key }) => key);
    expect(keys('admin')).toEqual(['home', 'members', 'players', 'tickets', 'transfers', 'adjustments', 'audit']);
    for (const role of ['viewer', 'support', 'finance']) {
      expect(keys(role)).toEqual(['home', 'players', 'tickets', 'transfers', 'adjustments', 'audit']);
    }
    expect(keys('nobody')).toEqual([]);
    expect(sectionsFor('admin').map(({ key }) => key)).toEqual([
      'members',
      'players',
      'tickets',
      'transfers',
      'adjustments',
      'audit',
    ]);
  });

  it("lists an admin's sections, and on the home page what they are for", async () => {
    viewportWidth(1280);
    signInStaff('staff-admin');
    renderApp('/staff');

    expect(await screen.findByRole('heading', { level: 1, name: 'Xin chào, staff-admin' })).toBeInTheDocument();
    expect(screen.getByText('Bạn đang làm việc với vai trò Quản trị.')).toBeInTheDocument();
    expect(navLinks()).toEqual([
      ['Trang đầu', '/staff'],
      ['Nhân viên', '/staff/staff'],
      ['Tra cứu người chơi', '/staff/players'],
      ['Yêu cầu hỗ trợ', '/staff/tickets'],
      ['Chuyển khoản chưa khớp', '/staff/transfers'],
      ['Điều chỉnh KP', '/staff/adjustments'],
      ['Nhật ký thao tác', '/staff/audit'],
    ]);
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: /Nhân viên.*Tạo tài khoản nhân viên/ })).toHaveAttribute(
      'href',
      '/staff/staff',
    );
    expect(within(main).getByRole('link', { name: /Nhật ký thao tác.*Xem nhật ký/ })).toHaveAttribute(
      'href',
      '/staff/audit',
    );
  });

  it('leaves staff management out for a viewer, in the navigation and on the home page', async () => {
    viewportWidth(1280);
    signInStaff('staff-viewer');
    renderApp('/staff');

    expect(await screen.findByRole('heading', { level: 1, name: 'Xin chào, staff-viewer' })).toBeInTheDocument();
    expect(within(screen.getByRole('banner')).getByText('Chỉ xem')).toBeInTheDocument();
    expect(navLinks()).toEqual([
      ['Trang đầu', '/staff'],
      ['Tra cứu người chơi', '/staff/players'],
      ['Yêu cầu hỗ trợ', '/staff/tickets'],
      ['Chuyển khoản chưa khớp', '/staff/transfers'],
      ['Điều chỉnh KP', '/staff/adjustments'],
      ['Nhật ký thao tác', '/staff/audit'],
    ]);
    expect(within(screen.getByRole('main')).queryByRole('link', { name: /Nhân viên/ })).toBeNull();
  });

  it("shows the server's refusal to a viewer who opens staff management directly", async () => {
    signInStaff('staff-viewer');
    renderApp('/staff/staff');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Không thực hiện được');
    expect(alert).toHaveTextContent(STAFF_FORBIDDEN);
    expect(screen.queryByRole('button', { name: 'Thêm nhân viên' })).toBeNull();
  });

  it('on a phone folds the navigation into a toggle showing the current section', async () => {
    viewportWidth(390);
    signInStaff('staff-admin');
    const { events, router } = renderApp('/staff/audit');

    const toggle = await screen.findByRole('button', { name: 'Nhật ký thao tác' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await events.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await events.click(within(screen.getByTestId('staff-mobile-nav')).getByRole('link', { name: 'Nhân viên' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff/staff'));
    expect(await screen.findByRole('button', { name: 'Nhân viên' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('says so for an unknown console page', async () => {
    signInStaff();
    renderApp('/staff/nowhere');
    expect(await screen.findByText('Trang bạn truy cập không tồn tại trong bảng điều khiển.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Về trang đầu' })).toHaveAttribute('href', '/staff');
  });

  it('signs out and loads the sign-in page afresh', async () => {
    signInStaff();
    const { events, fullNavigations } = renderApp('/staff');
    await events.click(await screen.findByRole('button', { name: 'Đăng xuất' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' })).toBeInTheDocument();
    expect(fullNavigations).toEqual(['/staff/login']);
    expect(staffDb.signedInId).toBeNull();
    expect(staffDb.calls.find(({ call }) => call === 'POST /api/staff/auth/sign-out')?.xsrf).toBe('staff-xsrf-token');
  });

  it('goes to the sign-in page, coming back here after, once a call finds the session ended', async () => {
    signInStaff();
    // 15 minutes unused: the session has ended by the time the page asks for the log.
    server.use(
      http.get('/api/staff/audit', () => {
        staffDb.signedInId = null;
        return HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
      }),
    );
    const { fullNavigations } = renderApp('/staff/audit');
    await waitFor(() => expect(fullNavigations).toEqual(['/staff/login?next_uri=%2Fstaff%2Faudit']));
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' })).toBeInTheDocument();
  });
});
