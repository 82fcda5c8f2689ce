// @vitest-environment-options {"url": "http://127.0.0.1:8080/login?next_uri=%2Fsecurity"}
import { describe, expect, it } from 'vitest';

import { renderApp, screen } from '@/testing/test-utils';
import { withWebAuthn } from '@/testing/webauthn-stub';

// This file's page is served at an IP address, as the development portal is (http://127.0.0.1:8080).
describe('sign-in with a passkey on an IP address', () => {
  it('links to the same page on localhost, where the passkeys live, instead of offering the button', async () => {
    withWebAuthn();
    renderApp('/login?next_uri=%2Fsecurity');
    await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' });

    expect(screen.queryByRole('button', { name: 'Đăng nhập bằng passkey' })).toBeNull();
    const link = screen.getByRole('link', { name: 'mở trang này tại localhost:8080' });
    expect(link).toHaveAttribute('href', 'http://localhost:8080/login?next_uri=%2Fsecurity');
    expect(link.parentElement).toHaveTextContent(
      'Passkey chỉ dùng được khi mở Kid bằng tên miền: mở trang này tại localhost:8080',
    );
    // The password sign-in is as ever.
    expect(screen.getByRole('button', { name: 'Đăng nhập' })).toBeInTheDocument();
  });

  it('says nothing of passkeys in a browser without WebAuthn', async () => {
    renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' });
    expect(screen.queryByText(/Passkey chỉ dùng được/)).toBeNull();
  });
});
