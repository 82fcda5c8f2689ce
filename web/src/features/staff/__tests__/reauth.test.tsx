import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { dataOf } from '@/lib/api-client';
import { server } from '@/testing/mocks/server';
import {
  STAFF_FORBIDDEN,
  STAFF_PASSWORD,
  STAFF_REAUTH_NEEDED,
  STAFF_REAUTH_WRONG,
  signInStaff,
  staffDb,
} from '@/testing/mocks/staff-handlers';
import { renderApp, renderComponent, screen, waitFor, within } from '@/testing/test-utils';
import { viewportWidth } from '@/testing/viewport';

import { staffApi } from '../api/staff-client';
import { ReauthDialog } from '../components/reauth-dialog';

const PATCH = '/api/staff/staff/:id';
const reauthRequired = () => HttpResponse.json({ message: STAFF_REAUTH_NEEDED, code: 'reauth_required' }, { status: 403 });

/** Keeps a PATCH answered here in the fake server's list of calls, as it keeps those it answers. */
async function note(request: Request) {
  const body: unknown = await request.clone().json();
  staffDb.calls.push({ call: `PATCH ${new URL(request.url).pathname}`, body, xsrf: request.headers.get('X-XSRF-TOKEN') });
}

/** The first `times` PATCHes answer 403 reauth_required; later ones reach the fake server. */
function requireReauthentication(times = 1) {
  let refused = 0;
  server.use(
    http.patch(PATCH, async ({ request }) => {
      if (refused >= times) return undefined;
      refused += 1;
      await note(request);
      return reauthRequired();
    }),
  );
}

const calls = (call: string) => staffDb.calls.filter((each) => each.call === call);
const patches = () => staffDb.calls.filter(({ call }) => call.startsWith('PATCH /api/staff/staff/'));

async function openRoleChange(username: string) {
  viewportWidth(1280);
  signInStaff('staff-admin');
  const rendered = renderApp('/staff/staff');
  const actions = await screen.findByRole('group', { name: `Thao tác với ${username}` });
  await rendered.events.click(within(actions).getByRole('button', { name: 'Đổi vai trò' }));
  const dialog = await screen.findByRole('dialog', { name: `Đổi vai trò của ${username}` });
  await rendered.events.selectOptions(within(dialog).getByRole('combobox', { name: 'Vai trò mới' }), 'Tài chính');
  await rendered.events.click(within(dialog).getByRole('button', { name: 'Lưu' }));
  return { ...rendered, dialog };
}

describe('re-authentication before an action that needs it', () => {
  it('asks for the password or app code on 403 reauth_required, then sends the action once more', async () => {
    requireReauthentication();
    const { events, dialog } = await openRoleChange('staff-support');

    const reauth = await screen.findByRole('dialog', { name: 'Xác thực lại' });
    // The server's own words say why.
    expect(within(reauth).getByText(STAFF_REAUTH_NEEDED)).toBeInTheDocument();
    const secret = within(reauth).getByLabelText(/Mật khẩu hoặc mã xác thực/, { selector: 'input' });
    await waitFor(() => expect(secret).toHaveFocus());

    // A wrong one is said under the field, and the action waits.
    await events.type(secret, 'Wrong@123456');
    await events.click(within(reauth).getByRole('button', { name: 'Xác nhận' }));
    expect(await within(reauth).findByText(STAFF_REAUTH_WRONG)).toBeInTheDocument();
    expect(secret).toHaveAttribute('aria-invalid', 'true');
    expect(patches()).toHaveLength(1);

    await events.clear(secret);
    await events.type(secret, STAFF_PASSWORD);
    await events.click(within(reauth).getByRole('button', { name: 'Xác nhận' }));

    expect(await screen.findByText('Đã đổi vai trò của staff-support thành Tài chính.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Xác thực lại' })).toBeNull());
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(calls('POST /api/staff/auth/reauthenticate').map(({ body }) => body)).toEqual([
      { secret: 'Wrong@123456' },
      { secret: STAFF_PASSWORD },
    ]);
    // The same call, once more: the same body and the console's XSRF token.
    expect(patches().map(({ body, xsrf }) => [body, xsrf])).toEqual([
      [{ role: 'finance', disabled: false }, 'staff-xsrf-token'],
      [{ role: 'finance', disabled: false }, 'staff-xsrf-token'],
    ]);
    expect(staffDb.members.find(({ username }) => username === 'staff-support')?.role).toBe('finance');
    // Five more minutes to move money.
    expect(staffDb.reauthenticatedUntil).not.toBeNull();
  });

  it('takes a six-digit app code, spaces aside', async () => {
    requireReauthentication();
    const { events } = await openRoleChange('staff-support');
    const reauth = await screen.findByRole('dialog', { name: 'Xác thực lại' });
    await events.type(within(reauth).getByLabelText(/Mật khẩu hoặc mã xác thực/, { selector: 'input' }), '234 567');
    await events.click(within(reauth).getByRole('button', { name: 'Xác nhận' }));

    expect(await screen.findByText('Đã đổi vai trò của staff-support thành Tài chính.')).toBeInTheDocument();
    expect(calls('POST /api/staff/auth/reauthenticate').map(({ body }) => body)).toEqual([{ secret: '234567' }]);
  });

  it('gives the action up, saying nothing, when the dialog is closed', async () => {
    requireReauthentication();
    const { events, dialog } = await openRoleChange('staff-support');
    const reauth = await screen.findByRole('dialog', { name: 'Xác thực lại' });
    await events.click(within(reauth).getByRole('button', { name: 'Hủy' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Xác thực lại' })).toBeNull());
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Lưu' })).toBeEnabled());
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(patches()).toHaveLength(1);
    expect(calls('POST /api/staff/auth/reauthenticate')).toHaveLength(0);
    expect(staffDb.members.find(({ username }) => username === 'staff-support')?.role).toBe('support');
  });

  it('sends the action once more only: a second refusal is said, not asked again', async () => {
    requireReauthentication(2);
    const { events, dialog } = await openRoleChange('staff-support');
    const reauth = await screen.findByRole('dialog', { name: 'Xác thực lại' });
    await events.type(within(reauth).getByLabelText(/Mật khẩu hoặc mã xác thực/, { selector: 'input' }), STAFF_PASSWORD);
    await events.click(within(reauth).getByRole('button', { name: 'Xác nhận' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Không đổi được vai trò');
    expect(alert).toHaveTextContent(STAFF_REAUTH_NEEDED);
    expect(screen.queryByRole('dialog', { name: 'Xác thực lại' })).toBeNull();
    expect(patches()).toHaveLength(2);
  });

  it("shows a role's refusal (403 without code) as the server says it, without asking to re-authenticate", async () => {
    server.use(http.patch(PATCH, () => HttpResponse.json({ message: STAFF_FORBIDDEN }, { status: 403 })));
    const { dialog } = await openRoleChange('staff-support');

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STAFF_FORBIDDEN);
    expect(screen.queryByRole('dialog', { name: 'Xác thực lại' })).toBeNull();
  });

  it("toasts a role's refusal of an action without a form of its own", async () => {
    staffDb.members[2] = { ...staffDb.members[2]!, disabled: true };
    server.use(http.patch(PATCH, () => HttpResponse.json({ message: STAFF_FORBIDDEN }, { status: 403 })));
    viewportWidth(1280);
    signInStaff('staff-admin');
    const { events } = renderApp('/staff/staff');
    const actions = await screen.findByRole('group', { name: 'Thao tác với staff-support' });
    await events.click(within(actions).getByRole('button', { name: 'Mở khóa' }));

    expect(await screen.findByText('Không thực hiện được')).toBeInTheDocument();
    expect(screen.getByText(STAFF_FORBIDDEN)).toBeInTheDocument();
  });

  it('asks once for calls refused together, and sends each once more after it', async () => {
    // Refused until the member has re-authenticated.
    server.use(
      http.patch(PATCH, async ({ request }) => {
        if (staffDb.reauthenticatedUntil) return undefined;
        await note(request);
        return reauthRequired();
      }),
    );
    signInStaff('staff-admin');
    const { events } = renderComponent(<ReauthDialog />);
    const [viewer, finance] = [staffDb.members[3]!, staffDb.members[1]!];
    const both = Promise.all([
      staffApi.PATCH('/staff/staff/{id}', { params: { path: { id: viewer.id } }, body: { role: 'support', disabled: false } }),
      staffApi.PATCH('/staff/staff/{id}', { params: { path: { id: finance.id } }, body: { role: 'finance', disabled: true } }),
    ]);

    const reauth = await screen.findByRole('dialog', { name: 'Xác thực lại' });
    await events.type(within(reauth).getByLabelText(/Mật khẩu hoặc mã xác thực/, { selector: 'input' }), STAFF_PASSWORD);
    await events.click(within(reauth).getByRole('button', { name: 'Xác nhận' }));

    const answers = await both;
    expect(answers.map((answer) => dataOf(answer)).map((data) => [data.username, data.role, data.disabled])).toEqual([
      ['staff-viewer', 'support', false],
      ['staff-finance', 'finance', true],
    ]);
    expect(calls('POST /api/staff/auth/reauthenticate')).toHaveLength(1);
    expect(patches()).toHaveLength(4);
  });

  it('asks nobody when no console layout is there: the call fails with the 403', async () => {
    server.use(http.patch(PATCH, reauthRequired));
    signInStaff('staff-admin');
    const id = staffDb.members[3]!.id;
    await expect(
      staffApi.PATCH('/staff/staff/{id}', { params: { path: { id } }, body: { role: 'support', disabled: false } }),
    ).rejects.toMatchObject({
      status: 403,
      message: STAFF_REAUTH_NEEDED,
    });
  });
});
