// @vitest-environment-options {"url": "http://127.0.0.1:8080/security"}
import { describe, expect, it } from 'vitest';

import { renderApp, screen, within } from '@/testing/test-utils';
import { withWebAuthn } from '@/testing/webauthn-stub';

// This file's page is served at an IP address, as the development portal is (http://127.0.0.1:8080).
describe('passkeys on an IP address', () => {
  it('lists them, and links to the same page on localhost instead of offering to add one', async () => {
    withWebAuthn();
    renderApp('/security', { user: true });
    const card = await screen.findByRole('region', { name: 'Passkey' });
    await within(card).findByRole('list', { name: 'Passkey' });

    expect(within(card).queryByRole('button', { name: 'Thêm passkey' })).toBeNull();
    const link = within(card).getByRole('link', { name: 'mở trang này tại localhost:8080' });
    expect(link).toHaveAttribute('href', 'http://localhost:8080/security');
    expect(card).toHaveTextContent('Passkey chỉ dùng được khi mở Kid bằng tên miền: mở trang này tại localhost:8080');
    // Removing one needs no WebAuthn.
    expect(within(card).getByRole('button', { name: 'Xóa passkey iPhone của An' })).toBeEnabled();
  });
});
