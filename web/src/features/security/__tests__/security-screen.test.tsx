import { describe, expect, it } from 'vitest';

import { formatDateTime } from '@/lib/format';
import { buildUser } from '@/testing/data';
import { renderApp, screen, within } from '@/testing/test-utils';

describe('security screen', () => {
  it('shows its sections in order under the page title', async () => {
    renderApp('/security', { user: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bảo mật và đăng nhập' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Thông tin đăng nhập',
      'Đổi mật khẩu',
      'Email bảo vệ',
      'Xác thực hai lớp',
      'Passkey',
      'Thiết bị đang đăng nhập',
      'Lịch sử đăng nhập',
    ]);
  });

  it('shows the username, read-only, and when the password was last changed', async () => {
    renderApp('/security', { user: buildUser({ username: 'an_nguyen', passwordChangedAt: '2026-10-01T07:15:00Z' }) });
    const login = await screen.findByRole('region', { name: 'Thông tin đăng nhập' });
    const terms = within(login).getAllByRole('term');
    expect(terms.map((term) => term.textContent)).toEqual(['Tên đăng nhập', 'Đổi mật khẩu lần cuối']);
    expect(terms[0]!.nextElementSibling).toHaveTextContent(/^an_nguyen$/);
    expect(terms[1]!.nextElementSibling).toHaveTextContent(formatDateTime('2026-10-01T07:15:00Z'));
    expect(within(login).queryByRole('button')).toBeNull();
    expect(within(login).queryByRole('textbox')).toBeNull();
  });

  it('leaves out the last password change when there was none', async () => {
    renderApp('/security', { user: buildUser({ passwordChangedAt: null }) });
    const login = await screen.findByRole('region', { name: 'Thông tin đăng nhập' });
    expect(within(login).getAllByRole('term').map((term) => term.textContent)).toEqual(['Tên đăng nhập']);
  });

  it('says whether two-factor authentication is on, with the action that changes it', async () => {
    renderApp('/security', { user: true });
    const twoFactor = await screen.findByRole('region', { name: /^Xác thực hai lớp/ });
    expect(within(twoFactor).getByText('Đang tắt')).toBeInTheDocument();
    expect(twoFactor).toHaveTextContent('ứng dụng xác thực');
    expect(within(twoFactor).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Bật xác thực hai lớp',
    ]);
  });
});
