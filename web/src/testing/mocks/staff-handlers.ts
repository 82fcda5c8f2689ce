import type { CreatedStaffBody, StaffActionBody, StaffBody, StaffMeBody } from '@/types/api-schema';

import { http, record } from './common';

/** The gateway's and identity service's wording (contracts/src/messages/staff.rs, http.rs). */
export const STAFF_SIGN_IN_FAILED = 'Tên đăng nhập, mật khẩu hoặc mã xác thực không đúng';
export const STAFF_CODE_REQUIRED = 'Vui lòng nhập mã từ ứng dụng xác thực';
export const STAFF_REAUTH_WRONG = 'Mật khẩu hoặc mã xác thực không đúng';
export const STAFF_REAUTH_REQUIRED = 'Vui lòng nhập mật khẩu hoặc mã xác thực';
export const STAFF_REAUTH_NEEDED =
  'Thao tác với tiền hoặc với nhân viên cần xác thực lại (mật khẩu hoặc mã ứng dụng) trong 5 phút gần nhất';
export const STAFF_FORBIDDEN = 'Vai trò của bạn không được phép thực hiện thao tác này';
export const STAFF_USERNAME_TAKEN = 'Tên đăng nhập nhân viên đã tồn tại';
export const STAFF_USERNAME_INVALID =
  'Tên đăng nhập nhân viên gồm 3–32 chữ thường, chữ số, dấu gạch ngang hoặc gạch dưới';
export const STAFF_ROLE_INVALID = 'Vai trò không hợp lệ';
export const STAFF_NOT_YOURSELF = 'Không thể tự hạ vai trò hoặc tự khóa tài khoản quản trị của mình';
export const STAFF_TOO_MANY = 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.';
const UNAUTHENTICATED = 'Unauthenticated.';
const CSRF_MISMATCH = 'CSRF token mismatch.';

/** The development staff's password; every member of the fake server has it. */
export const STAFF_PASSWORD = 'Staff@123456';
/** The app codes the fake server takes (each once), as if one per 30-second step. */
export const STAFF_CODES = ['123456', '234567', '345678', '456789'] as const;
/** What POST /staff/staff hands out for a new member. */
export const NEW_STAFF_PASSWORD = 'Hq7mZ2kP@x9RtW4nB6yE';
export const NEW_STAFF_SECRET = 'KRSXG5CTMVRXEZLUKN2XAZLSNBQXEZDF';

const ROLES = ['viewer', 'support', 'finance', 'admin'];

let memberCount = 0;

export function buildStaff(overrides: Partial<StaffBody> = {}): StaffBody {
  memberCount += 1;
  return {
    id: `0193f1c2-5aff-7000-8000-${String(memberCount).padStart(12, '0')}`,
    username: `staff-${memberCount}`,
    role: 'support',
    createdAt: '2026-11-01T02:00:00Z',
    signedInAt: null,
    disabled: false,
    ...overrides,
  };
}

function seedMembers(): StaffBody[] {
  return [
    buildStaff({ username: 'staff-admin', role: 'admin', signedInAt: '2026-11-27T01:00:00Z' }),
    buildStaff({ username: 'staff-finance', role: 'finance' }),
    buildStaff({ username: 'staff-support', role: 'support' }),
    buildStaff({ username: 'staff-viewer', role: 'viewer' }),
  ];
}

let actionCount = 0;

/** A sign-in of staff-admin unless told otherwise; each gets its own id. */
export function buildStaffAction(overrides: Partial<StaffActionBody> = {}): StaffActionBody {
  actionCount += 1;
  return {
    id: `0193f1c2-a0d1-7000-8000-${String(actionCount).padStart(12, '0')}`,
    occurredAt: '2026-11-27T03:00:00Z',
    staffId: '0193f1c2-5aff-7000-8000-000000000001',
    staffUsername: 'staff-admin',
    staffRole: 'admin',
    ip: '113.161.52.7',
    action: 'staff.sign_in',
    subject: 'staff:0193f1c2-5aff-7000-8000-000000000001',
    before: {},
    after: {},
    service: 'identity',
    ...overrides,
  };
}

/**
 * The fake console: its members, who this browser is signed in as, until when money may move
 * without re-authenticating, the audit log (newest first) and what each call was sent.
 */
export const staffDb = {
  members: seedMembers(),
  signedInId: null as string | null,
  xsrfToken: 'staff-xsrf-token',
  reauthenticatedUntil: null as string | null,
  usedCodes: [] as string[],
  actions: [] as StaffActionBody[],
  /** The JSON bodies and queries the console calls were sent, oldest first. */
  calls: [] as { call: string; body?: unknown; xsrf?: string | null }[],
};

export function resetStaffDb() {
  memberCount = 0;
  actionCount = 0;
  staffDb.members = seedMembers();
  staffDb.signedInId = null;
  staffDb.xsrfToken = 'staff-xsrf-token';
  staffDb.reauthenticatedUntil = null;
  staffDb.usedCodes = [];
  staffDb.actions = [];
  staffDb.calls = [];
}

/** Signs this browser in as the member `username` (staff-admin unless told). */
export function signInStaff(username = 'staff-admin') {
  const member = staffDb.members.find((each) => each.username === username);
  if (!member) throw new Error(`no staff member ${username}`);
  staffDb.signedInId = member.id;
  document.cookie = `STAFF-XSRF-TOKEN=${staffDb.xsrfToken}; path=/`;
  return member;
}

const signedIn = () => staffDb.members.find((member) => member.id === staffDb.signedInId && !member.disabled);

function me(member: StaffBody): StaffMeBody {
  return { ...member, reauthenticatedUntil: staffDb.reauthenticatedUntil, idleTimeoutSeconds: 900 };
}

const reauthenticatedNow = () => {
  staffDb.reauthenticatedUntil = new Date(Date.now() + 5 * 60_000).toISOString();
};

const xsrfOf = (request: Request) => request.headers.get('X-XSRF-TOKEN');
const validXsrf = (request: Request) => xsrfOf(request) === staffDb.xsrfToken;

function note(request: Request, body?: unknown) {
  record(request);
  const url = new URL(request.url);
  staffDb.calls.push({ call: `${request.method} ${url.pathname}${url.search}`, body, xsrf: xsrfOf(request) });
}

export const staffHandlers = [
  http.get('/staff/auth/csrf-cookie', ({ request, response }) => {
    note(request);
    // jsdom keeps cookies per document; the real server sets this with Set-Cookie.
    document.cookie = `STAFF-XSRF-TOKEN=${staffDb.xsrfToken}; path=/`;
    return response(204).empty();
  }),

  http.post('/staff/auth/sign-in', async ({ request, response }) => {
    const body = await request.json();
    note(request, body);
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    const errors: Record<string, string[]> = {};
    if (!body.username?.trim()) errors.username = ['Vui lòng nhập tên đăng nhập'];
    if (!body.password) errors.password = ['Vui lòng nhập mật khẩu'];
    if (!body.code?.trim()) errors.code = [STAFF_CODE_REQUIRED];
    if (Object.keys(errors).length > 0) {
      return response(422).json({ message: Object.values(errors)[0]![0]!, errors });
    }
    const member = staffDb.members.find((each) => each.username === body.username?.trim().toLowerCase());
    const codeRight = (STAFF_CODES as readonly string[]).includes(body.code ?? '') && !staffDb.usedCodes.includes(body.code ?? '');
    if (!member || member.disabled || body.password !== STAFF_PASSWORD || !codeRight) {
      return response(422).json({ message: STAFF_SIGN_IN_FAILED, errors: { username: [STAFF_SIGN_IN_FAILED] } });
    }
    staffDb.usedCodes.push(body.code ?? '');
    staffDb.signedInId = member.id;
    reauthenticatedNow();
    document.cookie = `STAFF-XSRF-TOKEN=${staffDb.xsrfToken}; path=/`;
    return response(200).json(me(member));
  }),

  http.get('/staff/me', ({ request, response }) => {
    note(request);
    const member = signedIn();
    return member ? response(200).json(me(member)) : response(401).json({ message: UNAUTHENTICATED });
  }),

  http.post('/staff/auth/reauthenticate', async ({ request, response }) => {
    const body = await request.json();
    note(request, body);
    const member = signedIn();
    if (!member) return response(401).json({ message: UNAUTHENTICATED });
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    const secret = body.secret ?? '';
    if (!secret.trim()) {
      return response(422).json({ message: STAFF_REAUTH_REQUIRED, errors: { secret: [STAFF_REAUTH_REQUIRED] } });
    }
    const right = /^\d{6}$/.test(secret)
      ? (STAFF_CODES as readonly string[]).includes(secret) && !staffDb.usedCodes.includes(secret)
      : secret === STAFF_PASSWORD;
    if (!right) return response(422).json({ message: STAFF_REAUTH_WRONG, errors: { secret: [STAFF_REAUTH_WRONG] } });
    if (/^\d{6}$/.test(secret)) staffDb.usedCodes.push(secret);
    reauthenticatedNow();
    return response(200).json(me(member));
  }),

  http.post('/staff/auth/sign-out', ({ request, response }) => {
    note(request);
    if (!signedIn()) return response(401).json({ message: UNAUTHENTICATED });
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    staffDb.signedInId = null;
    return response(204).empty();
  }),

  http.get('/staff/staff', ({ request, response }) => {
    note(request);
    const member = signedIn();
    if (!member) return response(401).json({ message: UNAUTHENTICATED });
    if (member.role !== 'admin') return response(403).json({ message: STAFF_FORBIDDEN });
    return response(200).json(staffDb.members);
  }),

  http.post('/staff/staff', async ({ request, response }) => {
    const body = await request.json();
    note(request, body);
    const member = signedIn();
    if (!member) return response(401).json({ message: UNAUTHENTICATED });
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    if (member.role !== 'admin') return response(403).json({ message: STAFF_FORBIDDEN });
    const username = body.username?.trim() ?? '';
    const errors: Record<string, string[]> = {};
    if (!/^[a-z0-9_-]{3,32}$/.test(username)) errors.username = [STAFF_USERNAME_INVALID];
    else if (staffDb.members.some((each) => each.username === username)) errors.username = [STAFF_USERNAME_TAKEN];
    if (!ROLES.includes(body.role ?? '')) errors.role = [STAFF_ROLE_INVALID];
    if (Object.keys(errors).length > 0) {
      return response(422).json({ message: Object.values(errors)[0]![0]!, errors });
    }
    const created = buildStaff({ username, role: body.role ?? '', createdAt: new Date().toISOString() });
    staffDb.members.push(created);
    const answer: CreatedStaffBody = {
      staff: created,
      password: NEW_STAFF_PASSWORD,
      totpSecret: NEW_STAFF_SECRET,
      otpauthUrl: `otpauth://totp/Kid%20Staff:${username}?secret=${NEW_STAFF_SECRET}&issuer=Kid%20Staff`,
    };
    return response(201).json(answer);
  }),

  http.patch('/staff/staff/{id}', async ({ request, params, response }) => {
    const body = await request.json();
    note(request, body);
    const member = signedIn();
    if (!member) return response(401).json({ message: UNAUTHENTICATED });
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    if (member.role !== 'admin') return response(403).json({ message: STAFF_FORBIDDEN });
    const role = body.role ?? '';
    if (!ROLES.includes(role)) return response(422).json({ message: STAFF_ROLE_INVALID, errors: { role: [STAFF_ROLE_INVALID] } });
    if (params.id === member.id && (role !== 'admin' || body.disabled)) {
      return response(422).json({ message: STAFF_NOT_YOURSELF, errors: { role: [STAFF_NOT_YOURSELF] } });
    }
    const index = staffDb.members.findIndex((each) => each.id === params.id);
    if (index < 0) return response(404).json({ message: 'Không tìm thấy nhân viên' });
    const changed = { ...staffDb.members[index]!, role, disabled: body.disabled ?? false };
    staffDb.members[index] = changed;
    return response(200).json(changed);
  }),

  // Newest first (by time, then id); after `before` and `beforeId`, as the gateway's.
  http.get('/staff/audit', ({ request, response }) => {
    note(request);
    if (!signedIn()) return response(401).json({ message: UNAUTHENTICATED });
    const query = new URL(request.url).searchParams;
    const limit = Math.min(Math.max(Number(query.get('limit') ?? 50), 1), 200);
    const before = query.get('before');
    const beforeId = query.get('beforeId');
    const subject = query.get('subject');
    const rows = staffDb.actions
      .filter((action) => !subject || action.subject === subject)
      .filter((action) => {
        const at = action.occurredAt ?? '';
        return !before || at < before || (at === before && !!beforeId && action.id < beforeId);
      })
      .slice(0, limit);
    return response(200).json(rows);
  }),
];
