import { describe, expect, it } from 'vitest';

import { renderApp, screen, waitFor } from '@/testing/test-utils';

describe('public routes', () => {
  // @isolated-module-graph: this file runs in a fresh worker (vite.config.ts), and this test
  // comes first in it, so the support screen's code is not imported yet when the route renders.
  it("shows 'Đang tải dữ liệu...' until the screen's code has loaded", async () => {
    renderApp('/support');
    expect(await screen.findByText('Đang tải dữ liệu...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Hỗ trợ' })).toBeInTheDocument();
    expect(screen.queryByText('Đang tải dữ liệu...')).toBeNull();
  });

  it.each([
    ['/login', 'Đăng nhập'],
    ['/register', 'Đăng ký tài khoản'],
    ['/recovery', 'Quên thông tin tài khoản'],
    ['/recovery/forgot-password', 'Quên mật khẩu'],
    ['/recovery/forgot-password/some-token', 'Đặt lại mật khẩu'],
    ['/recovery/forgot-username', 'Quên tên đăng nhập'],
    ['/email-verification/some-token', 'Xác minh địa chỉ Email'],
    ['/end-session/some-token', 'Đăng xuất thiết bị vừa đăng nhập'],
    ['/support', 'Hỗ trợ'],
  ])('%s shows its screen', async (url, heading) => {
    renderApp(url);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('/recovery offers forgot username and forgot password', async () => {
    renderApp('/recovery');
    expect(await screen.findByRole('link', { name: 'Quên tên đăng nhập' })).toHaveAttribute(
      'href',
      '/recovery/forgot-username',
    );
    expect(screen.getByRole('link', { name: 'Quên mật khẩu' })).toHaveAttribute('href', '/recovery/forgot-password');
  });

  it('/support says the support centre is in development and links to messenger', async () => {
    renderApp('/support');
    expect(await screen.findByText('Trung tâm hỗ trợ đang trong quá trình phát triển.')).toBeInTheDocument();
    const messenger = screen.getByRole('link', { name: 'Nhắn tin qua Messenger' });
    expect(messenger).toHaveAttribute('href', 'https://m.me/kid.example');
    expect(messenger).toHaveAttribute('target', '_blank');
  });

  it('/email-verification without a token goes to /login', async () => {
    const { router } = renderApp('/email-verification');
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it.each(['/does-not-exist', '/payment/unknown-method', '/recovery/elsewhere/deep'])(
    'unknown path %s says the page does not exist',
    async (url) => {
      renderApp(url);
      expect(await screen.findByText('Trang bạn truy cập không tồn tại.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Kid - Trang chủ' })).toHaveAttribute('href', '/');
    },
  );
});

describe('signed-in routes', () => {
  it.each([
    ['/', 'Thông tin cá nhân'],
    ['/security', 'Bảo mật và đăng nhập'],
    ['/payment', 'Nạp thẻ'],
    ['/recharge', 'Nạp game'],
    ['/giftcode', 'Nhập giftcode'],
    ['/transactions', 'Lịch sử giao dịch'],
    ['/transactions/all', 'Toàn bộ lịch sử giao dịch'],
    ['/transactions/0193f1c2-0000-7000-8000-ffffffffffff', 'Biên lai giao dịch'],
  ])('%s shows its screen inside the shell', async (url, heading) => {
    renderApp(url, { user: true });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
  });

  it('/payment asks to choose a payment method', async () => {
    renderApp('/payment', { user: true });
    expect(await screen.findByText('Hãy chọn một phương thức thanh toán để bắt đầu.')).toBeInTheDocument();
  });

  it.each([
    ['/payment/bank-transfer', 'Ngân hàng'],
    ['/payment/e-wallet', 'Ví điện tử'],
    ['/payment/card', 'Thẻ cào'],
  ])('%s shows its method under the top-up heading', async (url, heading) => {
    renderApp(url, { user: true });
    expect(await screen.findByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Nạp thẻ' })).toBeInTheDocument();
    expect(screen.queryByText('Hãy chọn một phương thức thanh toán để bắt đầu.')).not.toBeInTheDocument();
  });

  it('/recharge asks to choose a product', async () => {
    renderApp('/recharge', { user: true });
    expect(await screen.findByText('Hãy chọn một sản phẩm bạn muốn thực hiện lệnh nạp.')).toBeInTheDocument();
  });

  it('/recharge/:productCode shows that product', async () => {
    renderApp('/recharge/jxsj2', { user: true });
    expect(await screen.findByRole('heading', { level: 2, name: 'Kiếm Thế 2' })).toBeInTheDocument();
    expect(screen.queryByText('Hãy chọn một sản phẩm bạn muốn thực hiện lệnh nạp.')).not.toBeInTheDocument();
  });

  it('the shell is not used by public pages', async () => {
    renderApp('/support', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Hỗ trợ' });
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Quản lý tài khoản' })).toBeNull());
  });
});
