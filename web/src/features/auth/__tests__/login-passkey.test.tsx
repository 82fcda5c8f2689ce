import { beforeEach, describe, expect, it, vi } from 'vitest';

import { buildUser, TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { LOGIN_FAILED } from '@/testing/mocks/handlers';
import {
  AUTHENTICATOR_CREDENTIAL_ID,
  buildPasskey,
  PASSKEY_CHALLENGE,
  PASSKEY_SIGN_IN_FAILED,
  passkeyDb,
} from '@/testing/mocks/passkey-handlers';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { webauthnStub, withWebAuthn } from '@/testing/webauthn-stub';

vi.mock('@simplewebauthn/browser', async (importOriginal) =>
  (await import('@/testing/webauthn-stub')).stubWebAuthn(await importOriginal()),
);

const passkeyButton = () => screen.getByRole('button', { name: 'Đăng nhập bằng passkey' });

/** The player's passkey, held by the browser's authenticator. */
function holdPasskey() {
  passkeyDb.passkeys.push({ passkey: buildPasskey({ name: 'Máy tính ở nhà' }), credentialId: AUTHENTICATOR_CREDENTIAL_ID });
}

async function openLogin() {
  const rendered = renderApp('/login');
  await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' });
  return rendered;
}

beforeEach(() => {
  webauthnStub.reset();
  withWebAuthn();
});

describe('sign-in with a passkey', () => {
  it('signs in without a username or password, with remember as ticked, and goes on as a password sign-in does', async () => {
    holdPasskey();
    const { events, router } = await openLogin();
    await events.click(screen.getByRole('checkbox', { name: 'Ghi nhớ đăng nhập' }));
    await events.click(passkeyButton());

    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(db.signedIn).toBe(true);
    // The prompt was given the server's options: no passkey named, the browser offers its own.
    expect(webauthnStub.authentications).toHaveLength(1);
    expect(webauthnStub.authentications[0]).toMatchObject({ challenge: PASSKEY_CHALLENGE, rpId: 'localhost' });
    expect(webauthnStub.authentications[0]).not.toHaveProperty('allowCredentials');
    // The browser's answer to the ceremony handed out.
    expect(passkeyDb.bodies.map(({ path }) => path)).toEqual(['/auth/passkey']);
    expect(passkeyDb.bodies[0]?.body).toMatchObject({
      ceremonyId: passkeyDb.issued[0],
      credential: { id: AUTHENTICATOR_CREDENTIAL_ID, type: 'public-key' },
      remember: true,
    });
    // The CSRF cookie first, as for every state-changing call.
    const calls = db.requests.filter((request) => !request.startsWith('GET /api/me'));
    expect(calls.slice(0, 3)).toEqual(['GET /api/auth/csrf-cookie', 'POST /api/auth/passkey/options', 'POST /api/auth/passkey']);
  });

  it('needs no code from the authenticator app when two-factor is on', async () => {
    db.user = buildUser({ mfaEnabled: true });
    holdPasskey();
    const { events } = await openLogin();
    await events.click(passkeyButton());
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(passkeyDb.bodies[0]?.body).toHaveProperty('remember', false);
  });

  it('shows the server refusal in the alert and stays on the page', async () => {
    // The browser's passkey is no longer on the account (removed elsewhere).
    const { events } = await openLogin();
    await events.click(passkeyButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Đăng nhập không thành công');
    expect(alert).toHaveTextContent(PASSKEY_SIGN_IN_FAILED);
    expect(db.signedIn).toBe(false);
    expect(screen.getByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    await waitFor(() => expect(passkeyButton()).toBeEnabled());
  });

  it('says calmly that the prompt was closed, and asks nothing of the server', async () => {
    holdPasskey();
    webauthnStub.outcome = 'dismiss';
    const { events } = await openLogin();
    await events.click(passkeyButton());

    expect(await screen.findByRole('status')).toHaveTextContent('Đã hủy đăng nhập bằng passkey.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Đăng nhập không thành công')).toBeNull();
    expect(passkeyDb.bodies).toEqual([]);
    expect(db.signedIn).toBe(false);

    // Another try signs in.
    webauthnStub.outcome = 'confirm';
    await events.click(passkeyButton());
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
  });

  it('says in Vietnamese when the browser could not use the passkey', async () => {
    webauthnStub.outcome = 'fail';
    const { events } = await openLogin();
    await events.click(passkeyButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Trình duyệt không dùng được passkey lúc này. Hãy thử lại hoặc đăng nhập bằng mật khẩu.',
    );
    expect(passkeyDb.bodies).toEqual([]);
  });

  it('replaces the password refusal with the passkey outcome, and the other way round', async () => {
    const { events } = await openLogin();
    await events.type(screen.getByLabelText(/Tên đăng nhập/), 'player01');
    await events.type(screen.getByLabelText(/Mật khẩu/, { selector: 'input' }), 'wrong-password');
    await events.click(screen.getByRole('button', { name: 'Đăng nhập' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(LOGIN_FAILED);

    await events.click(passkeyButton());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(PASSKEY_SIGN_IN_FAILED));
    expect(screen.getByRole('alert')).not.toHaveTextContent(LOGIN_FAILED);

    await events.clear(screen.getByLabelText(/Mật khẩu/, { selector: 'input' }));
    await events.type(screen.getByLabelText(/Mật khẩu/, { selector: 'input' }), TEST_PASSWORD);
    await events.click(screen.getByRole('button', { name: 'Đăng nhập' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
  });

  it('offers no passkey in a browser without WebAuthn', async () => {
    vi.unstubAllGlobals();
    await openLogin();
    expect(screen.queryByRole('button', { name: 'Đăng nhập bằng passkey' })).toBeNull();
    expect(screen.queryByText(/Passkey chỉ dùng được/)).toBeNull();
  });
});
