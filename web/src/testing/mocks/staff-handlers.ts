import { meetsPasswordLevel } from '@/lib/password-strength';
import type { CreatedStaffBody, StaffActionBody, StaffBody, StaffEnrolmentBody, StaffMeBody } from '@/types/api-schema';

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
export const STAFF_NOT_YOURSELF_RESET = 'Không thể tự đặt lại thông tin đăng nhập của mình';
export const STAFF_EMAIL_INVALID = 'Địa chỉ email không hợp lệ';
export const STAFF_EMAIL_TAKEN = 'Địa chỉ email này đã dùng cho một nhân viên khác';
export const STAFF_NO_EMAIL = 'Nhân viên này chưa có địa chỉ email để nhận đường dẫn đăng ký';
export const STAFF_ENROLMENT_INVALID = 'Đường dẫn đăng ký không hợp lệ hoặc đã hết hạn. Hãy nhờ quản trị viên gửi lại.';
export const STAFF_ENROL_PASSWORD_WEAK =
  'Mật khẩu nhân viên cần đủ bốn loại ký tự: chữ thường, chữ hoa, chữ số và ký hiệu';
export const STAFF_ENROL_CODE_WRONG = 'Mã xác thực không đúng. Hãy kiểm tra đồng hồ của điện thoại và nhập mã mới nhất';
export const STAFF_TOO_MANY = 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.';
const UNAUTHENTICATED = 'Unauthenticated.';
const CSRF_MISMATCH = 'CSRF token mismatch.';

/** The development staff's password; every member of the fake server has it. */
export const STAFF_PASSWORD = 'Staff@123456';
/** The app codes the fake server takes (each once), as if one per 30-second step. */
export const STAFF_CODES = ['123456', '234567', '345678', '456789'] as const;
/** The app secret every enrolment link of the fake server offers. */
export const NEW_STAFF_SECRET = 'KRSXG5CTMVRXEZLUKN2XAZLSNBQXEZDF';
/** The token of the link mailed to `username` (the fake server's mail is not read). */
export const enrolmentToken = (username: string) => `enrol-token-${username}`;

const ROLES = ['viewer', 'support', 'finance', 'admin'];

let memberCount = 0;

export function buildStaff(overrides: Partial<StaffBody> = {}): StaffBody {
  memberCount += 1;
  const username = overrides.username ?? `staff-${memberCount}`;
  return {
    id: `0193f1c2-5aff-7000-8000-${String(memberCount).padStart(12, '0')}`,
    username,
    role: 'support',
    createdAt: '2026-11-01T02:00:00Z',
    signedInAt: null,
    disabled: false,
    email: `${username}@staff.kid.test`,
    enrolmentPending: false,
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

/** An open enrolment: the link's token, whose it is, and until when it works. */
type OpenEnrolment = { token: string; staffId: string; expiresAt: string };

/**
 * The fake console: its members, who this browser is signed in as, until when money may move
 * without re-authenticating, the open enrolment links, the audit log (newest first) and what
 * each call was sent.
 */
export const staffDb = {
  members: seedMembers(),
  signedInId: null as string | null,
  xsrfToken: 'staff-xsrf-token',
  reauthenticatedUntil: null as string | null,
  usedCodes: [] as string[],
  enrolments: [] as OpenEnrolment[],
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
  staffDb.enrolments = [];
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

/** Opens `member`'s enrolment for 24 hours (an earlier link of theirs stops working). */
export function openEnrolment(member: StaffBody): OpenEnrolment {
  const enrolment = {
    token: enrolmentToken(member.username),
    staffId: member.id,
    expiresAt: new Date(Date.now() + 24 * 60 * 60_000).toISOString(),
  };
  staffDb.enrolments = [...staffDb.enrolments.filter(({ staffId }) => staffId !== member.id), enrolment];
  return enrolment;
}

const findEnrolment = (token: string | undefined) => staffDb.enrolments.find((each) => each.token === token);

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
    const email = body.email?.trim() ?? '';
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) errors.email = [STAFF_EMAIL_INVALID];
    else if (staffDb.members.some((each) => each.email?.toLowerCase() === email.toLowerCase())) {
      errors.email = [STAFF_EMAIL_TAKEN];
    }
    if (Object.keys(errors).length > 0) {
      return response(422).json({ message: Object.values(errors)[0]![0]!, errors });
    }
    const created = buildStaff({
      username,
      role: body.role ?? '',
      email,
      enrolmentPending: true,
      createdAt: new Date().toISOString(),
    });
    staffDb.members.push(created);
    openEnrolment(created);
    const answer: CreatedStaffBody = { staff: created };
    return response(201).json(answer);
  }),

  http.post('/staff/staff/{id}/reset-credentials', ({ request, params, response }) => {
    note(request);
    const member = signedIn();
    if (!member) return response(401).json({ message: UNAUTHENTICATED });
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    if (member.role !== 'admin') return response(403).json({ message: STAFF_FORBIDDEN });
    if (params.id === member.id) {
      return response(422).json({ message: STAFF_NOT_YOURSELF_RESET, errors: { staff: [STAFF_NOT_YOURSELF_RESET] } });
    }
    const index = staffDb.members.findIndex((each) => each.id === params.id);
    if (index < 0) return response(404).json({ message: 'Không tìm thấy nhân viên' });
    if (!staffDb.members[index]!.email) {
      return response(422).json({ message: STAFF_NO_EMAIL, errors: { email: [STAFF_NO_EMAIL] } });
    }
    const changed = { ...staffDb.members[index]!, enrolmentPending: true };
    staffDb.members[index] = changed;
    openEnrolment(changed);
    return response(200).json(changed);
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

  http.post('/staff/enrolment/check', async ({ request, response }) => {
    const body = await request.json();
    note(request, body);
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    const enrolment = findEnrolment(body.token);
    const member = staffDb.members.find(({ id }) => id === enrolment?.staffId);
    if (!enrolment || !member) return response(404).json({ message: STAFF_ENROLMENT_INVALID });
    const answer: StaffEnrolmentBody = {
      username: member.username,
      totpSecret: NEW_STAFF_SECRET,
      otpauthUrl: `otpauth://totp/Kid%20Staff:${member.username}?secret=${NEW_STAFF_SECRET}&issuer=Kid%20Staff`,
      expiresAt: enrolment.expiresAt,
    };
    return response(200).json(answer);
  }),

  // As identity checks it: the fields first, then the link, then the code against the secret.
  http.post('/staff/enrolment', async ({ request, response }) => {
    const body = await request.json();
    note(request, body);
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    const { password = '', passwordConfirm = '', code = '' } = body;
    const errors: Record<string, string[]> = {};
    if (!code.trim()) errors.code = [STAFF_CODE_REQUIRED];
    else if (!/^\d{6}$/.test(code)) errors.code = ['Mã xác thực gồm 6 chữ số'];
    if (!password) errors.password = ['Vui lòng nhập mật khẩu'];
    else if (!meetsPasswordLevel(password, 'veryStrong')) errors.password = [STAFF_ENROL_PASSWORD_WEAK];
    if (!passwordConfirm) errors.passwordConfirm = ['Vui lòng nhập lại mật khẩu'];
    else if (password && password !== passwordConfirm) errors.passwordConfirm = ['Mật khẩu nhập lại không khớp'];
    if (Object.keys(errors).length > 0) {
      return response(422).json({ message: Object.values(errors)[0]![0]!, errors });
    }
    const enrolment = findEnrolment(body.token);
    const index = staffDb.members.findIndex(({ id }) => id === enrolment?.staffId);
    if (!enrolment || index < 0) return response(404).json({ message: STAFF_ENROLMENT_INVALID });
    if (!(STAFF_CODES as readonly string[]).includes(code) || staffDb.usedCodes.includes(code)) {
      return response(422).json({ message: STAFF_ENROL_CODE_WRONG, errors: { code: [STAFF_ENROL_CODE_WRONG] } });
    }
    staffDb.usedCodes.push(code);
    staffDb.enrolments = staffDb.enrolments.filter((each) => each !== enrolment);
    staffDb.members[index] = { ...staffDb.members[index]!, enrolmentPending: false };
    return response(204).empty();
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
