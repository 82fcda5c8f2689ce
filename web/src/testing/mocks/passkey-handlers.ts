import type { HttpHandler } from 'msw';

import type { Passkey } from '@/types/api-schema';

import { csrfMismatch, hasValidXsrf, http, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The identity service's wording (contracts/src/messages/passkey.rs and account.rs). */
export const PASSKEY_SIGN_IN_FAILED =
  'Không thể đăng nhập bằng passkey này. Hãy thử lại hoặc đăng nhập bằng mật khẩu.';
export const PASSKEY_EXPIRED = 'Yêu cầu passkey đã hết hạn, hãy thử lại.';
export const PASSKEY_NOT_SAVED = 'Không thể lưu passkey này. Hãy thử lại.';
export const PASSKEY_ALREADY_ADDED = 'Passkey này đã được thêm vào một tài khoản Kid.';
export const PASSKEY_LIMIT = 'Mỗi tài khoản có tối đa 10 passkey. Hãy xóa bớt một passkey trước khi thêm.';
export const PASSKEY_NAME_LONG = 'Tên passkey tối đa 50 ký tự.';
export const PASSKEY_NOT_FOUND = 'Không tìm thấy passkey này.';
export const PASSKEY_PASSWORD_REQUIRED = 'Hãy nhập mật khẩu hiện tại của bạn.';
export const PASSKEY_PASSWORD_WRONG = 'Mật khẩu hiện tại không chính xác.';
/** What the server names a passkey added without a name, from the browser that added it. */
export const PASSKEY_DEVICE_NAME = 'Chrome 126 trên Windows 10';
/** The id of the passkey the fake authenticator holds (see testing/webauthn-stub.ts). */
export const AUTHENTICATOR_CREDENTIAL_ID = 'Y3JlZGVudGlhbC1vZi10aGlzLWRldmljZQ';

const MAX_PASSKEYS = 10;

let passkeyCount = 0;

/** A passkey added on 20 November and never used, unless told otherwise; each gets its own id. */
export function buildPasskey(overrides: Partial<Passkey> = {}): Passkey {
  passkeyCount += 1;
  return {
    id: `0194b1c0-0000-7000-8000-${String(passkeyCount).padStart(12, '0')}`,
    name: 'iPhone của An',
    createdAt: '2026-11-20T08:00:00Z',
    lastUsedAt: null,
    ...overrides,
  };
}

/** Oldest first: the phone's, used since, then a laptop's never used. */
export function buildPasskeys(): Passkey[] {
  return [
    buildPasskey({ name: 'iPhone của An', createdAt: '2026-11-20T08:00:00Z', lastUsedAt: '2026-11-22T09:15:00Z' }),
    buildPasskey({ name: 'Safari 17 trên macOS', createdAt: '2026-11-21T14:30:00Z', lastUsedAt: null }),
  ];
}

type Ceremony = { id: string; kind: 'registration' | 'sign-in' };

/**
 * The fake server's passkeys: the signed-in account's list (each with the credential id that
 * signs in with it), the ceremonies handed out and not answered yet, and the bodies sent.
 */
export const passkeyDb = {
  passkeys: buildPasskeys().map((passkey) => ({ passkey, credentialId: `credential-${passkey.id}` })),
  ceremonies: [] as Ceremony[],
  /** Every ceremony id handed out, oldest first. */
  issued: [] as string[],
  /** The JSON bodies the passkey calls were sent, oldest first. */
  bodies: [] as { path: string; body: unknown }[],
};

export function resetPasskeyDb() {
  passkeyDb.passkeys = buildPasskeys().map((passkey) => ({ passkey, credentialId: `credential-${passkey.id}` }));
  passkeyDb.ceremonies = [];
  passkeyDb.issued = [];
  passkeyDb.bodies = [];
}

/** The passkeys as GET /me/passkeys lists them. */
export const listedPasskeys = () => passkeyDb.passkeys.map(({ passkey }) => passkey);

let ceremonyCount = 0;

function startCeremony(kind: Ceremony['kind']): string {
  ceremonyCount += 1;
  const id = `ceremony-${ceremonyCount}`;
  passkeyDb.ceremonies.push({ id, kind });
  passkeyDb.issued.push(id);
  return id;
}

/** Used up whatever the answer, as the identity service: false when unknown or used. */
function takeCeremony(id: unknown, kind: Ceremony['kind']): boolean {
  const ceremony = passkeyDb.ceremonies.find((candidate) => candidate.id === id && candidate.kind === kind);
  passkeyDb.ceremonies = passkeyDb.ceremonies.filter((candidate) => candidate !== ceremony);
  return !!ceremony;
}

/** Why a state-changing /me call is refused before its body is looked at, if it is. */
function refusal(request: Request) {
  if (!db.signedIn) return unauthenticated();
  if (!hasValidXsrf(request)) return csrfMismatch();
  return null;
}

/** The challenge of every ceremony the fake server hands out. */
export const PASSKEY_CHALLENGE = 'Y2hhbGxlbmdlLWZyb20tdGhlLWZha2Utc2VydmVy';

/** The gateway's passkey calls (gateway/src/api/passkeys.rs), as the identity service answers them. */
export const passkeyHandlers: HttpHandler[] = [
  // Not recorded in db.requests: the screen reads the list on every visit, as GET /me/sessions.
  http.get('/me/passkeys', ({ response }) =>
    db.signedIn ? response(200).json(listedPasskeys()) : unauthenticated(),
  ),

  http.post('/me/passkeys/options', async ({ request, response }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    const body = await request.json();
    passkeyDb.bodies.push({ path: '/me/passkeys/options', body });
    const { password = '' } = body;
    if (!password) return validationError({ password: [PASSKEY_PASSWORD_REQUIRED] });
    if (password !== db.password) return validationError({ password: [PASSKEY_PASSWORD_WRONG] });
    if (passkeyDb.passkeys.length >= MAX_PASSKEYS) return response(409).json({ message: PASSKEY_LIMIT });
    return response(200).json({
      ceremonyId: startCeremony('registration'),
      options: {
        rp: { id: 'localhost', name: 'Kid' },
        user: { id: 'dXNlci1pZA', name: db.user.username, displayName: db.user.username },
        challenge: PASSKEY_CHALLENGE,
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
        timeout: 300_000,
        excludeCredentials: passkeyDb.passkeys.map(({ credentialId }) => ({ type: 'public-key', id: credentialId })),
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      },
    });
  }),

  http.post('/me/passkeys', async ({ request, response }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    const body = await request.json();
    passkeyDb.bodies.push({ path: '/me/passkeys', body });
    const { ceremonyId, credential, name = '' } = body;
    if ([...name.trim()].length > 50) return validationError({ name: [PASSKEY_NAME_LONG] });
    if (!takeCeremony(ceremonyId, 'registration')) return validationError({ credential: [PASSKEY_EXPIRED] });
    const credentialId = typeof credential?.id === 'string' ? credential.id : '';
    if (!credentialId) return validationError({ credential: [PASSKEY_NOT_SAVED] });
    if (passkeyDb.passkeys.some((held) => held.credentialId === credentialId)) {
      return validationError({ credential: [PASSKEY_ALREADY_ADDED] });
    }
    const passkey = buildPasskey({ name: name.trim() || PASSKEY_DEVICE_NAME, createdAt: new Date().toISOString() });
    passkeyDb.passkeys.push({ passkey, credentialId });
    return response(201).json(passkey);
  }),

  http.delete('/me/passkeys/{id}', ({ request, params, response }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    const held = passkeyDb.passkeys.find(({ passkey }) => passkey.id === params.id);
    if (!held) return response(404).json({ message: PASSKEY_NOT_FOUND });
    passkeyDb.passkeys = passkeyDb.passkeys.filter((candidate) => candidate !== held);
    return response(204).empty();
  }),

  // Public: the passkey the browser chooses names the account.
  http.post('/auth/passkey/options', ({ request, response }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    return response(200).json({
      ceremonyId: startCeremony('sign-in'),
      options: { challenge: PASSKEY_CHALLENGE, timeout: 300_000, rpId: 'localhost', userVerification: 'required' },
    });
  }),

  http.post('/auth/passkey', async ({ request, response }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const body = await request.json();
    passkeyDb.bodies.push({ path: '/auth/passkey', body });
    const { ceremonyId, credential } = body;
    if (!takeCeremony(ceremonyId, 'sign-in')) return validationError({ credential: [PASSKEY_EXPIRED] });
    const held = passkeyDb.passkeys.find(({ credentialId }) => credentialId === credential?.id);
    if (!held) return validationError({ credential: [PASSKEY_SIGN_IN_FAILED] });
    held.passkey = { ...held.passkey, lastUsedAt: new Date().toISOString() };
    // As a password sign-in, and without the code step even with two-factor on.
    db.signedIn = true;
    return response(200).json(db.user);
  }),
];
