import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { server } from '@/testing/mocks/server';
import {
  ADJUSTMENT_KP,
  FINANCE_PLAYERS,
  OWN_ADJUSTMENT,
  buildAdjustment,
  financeDb,
} from '@/testing/mocks/staff-finance-handlers';
import { STAFF_PASSWORD, buildStaff, signInStaff, staffDb } from '@/testing/mocks/staff-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { viewportWidth } from '@/testing/viewport';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function adjustmentItem(id: string): HTMLElement {
  const item = screen.getAllByRole('listitem').find((each) => each.dataset.adjustment === id);
  if (!item) throw new Error(`no adjustment ${id}`);
  return item;
}

const asks = () => financeDb.calls.filter(({ call }) => call === 'POST /api/staff/adjustments');

function signIn(username: string) {
  if (!staffDb.members.some((member) => member.username === username)) {
    staffDb.members.push(buildStaff({ username, role: 'finance' }));
  }
  const member = signInStaff(username);
  staffDb.reauthenticatedUntil = new Date(Date.now() + 5 * 60_000).toISOString();
  return member;
}

async function openPage(url = '/staff/adjustments') {
  const rendered = renderApp(url);
  await screen.findByRole('heading', { level: 1, name: 'Điều chỉnh KP' });
  return rendered;
}

async function fillAsk(events: ReturnType<typeof renderApp>['events'], { player, kp, reason }: Record<string, string>) {
  const form = await screen.findByRole('form', { name: 'Tạo điều chỉnh KP' });
  const field = (name: RegExp) => within(form).getByRole('textbox', { name });
  for (const [name, value] of [
    [/Tên đăng nhập người chơi/, player],
    [/Số KP/, kp],
    [/Lý do/, reason],
  ] as const) {
    await events.clear(field(name));
    if (value) await events.type(field(name), value);
  }
  await events.click(within(form).getByRole('button', { name: 'Gửi yêu cầu' }));
  return form;
}

beforeEach(() => viewportWidth(1280));

describe('KP adjustments', () => {
  it('lists them pending first, with player, signed KP, reason, status, asker, decider and times, and the threshold', async () => {
    signIn('staff-viewer');
    const applied = buildAdjustment({
      kp: -20_000,
      reason: 'Thu hồi KP nạp trùng',
      decidedByUsername: '',
      decidedAt: '2026-11-27T03:00:00Z',
      createdAt: '2026-11-27T03:00:00Z',
    });
    const pending = buildAdjustment({
      userId: FINANCE_PLAYERS.minhtran.id,
      kp: 250_000,
      status: 'pending',
      reason: 'Bồi hoàn giải đấu',
      createdAt: '2026-11-26T01:00:00Z',
    });
    const rejected = buildAdjustment({
      status: 'rejected',
      decidedByUsername: 'staff-finance2',
      decidedAt: '2026-11-26T05:30:00Z',
      createdAt: '2026-11-26T05:00:00Z',
    });
    financeDb.adjustments = [applied, rejected, pending];
    await openPage();

    expect(
      await screen.findByText(
        'Điều chỉnh trên 200.000 KP (cộng hoặc thu hồi) cần người thứ hai duyệt: một nhân viên Tài chính khác với người tạo. Từ 200.000 KP trở xuống được áp dụng ngay, trừ khi cộng với các điều chỉnh đã tự áp dụng trong 24 giờ qua (của người tạo, hoặc cho người chơi này) vượt 200.000 KP: khi đó cũng cần người thứ hai duyệt.',
      ),
    ).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Danh sách điều chỉnh KP' });
    expect(within(list).getAllByRole('listitem').map((each) => each.dataset.status)).toEqual(['pending', 'applied', 'rejected']);

    const first = adjustmentItem(pending.id);
    expect(first).toHaveTextContent('+250.000 KP');
    expect(first).toHaveTextContent('Chờ duyệt');
    // The player's username, looked up by id.
    await waitFor(() => expect(first).toHaveTextContent('Người chơiminhtran'));
    expect(first).toHaveTextContent('Bồi hoàn giải đấu');
    expect(first).toHaveTextContent('Người tạostaff-finance');
    expect(first).toHaveTextContent('26/11/2026 08:00:00');

    expect(adjustmentItem(applied.id)).toHaveTextContent('-20.000 KP');
    expect(adjustmentItem(applied.id)).toHaveTextContent('Đã áp dụng');
    const last = adjustmentItem(rejected.id);
    expect(last).toHaveTextContent('Đã từ chối');
    expect(last).toHaveTextContent('Người từ chốistaff-finance2');
    expect(last).toHaveTextContent('Xử lý lúc26/11/2026 12:30:00');

    // A viewer may look only.
    expect(screen.getByText('Chỉ vai trò Tài chính tạo, duyệt hoặc từ chối điều chỉnh; bạn chỉ xem.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Tạo điều chỉnh KP' })).toBeNull();
    expect(within(list).queryByRole('button')).toBeNull();
  });

  it('filters by status through the URL', async () => {
    signIn('staff-finance');
    financeDb.adjustments = [buildAdjustment(), buildAdjustment({ status: 'pending', kp: 300_000 })];
    const { events, router } = await openPage();
    await screen.findByRole('list', { name: 'Danh sách điều chỉnh KP' });
    await events.selectOptions(screen.getByRole('combobox', { name: 'Trạng thái' }), 'Đã từ chối');

    expect(await screen.findByText('Không có điều chỉnh nào ở trạng thái này.')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?status=rejected');
    expect(financeDb.calls.map(({ call }) => call)).toContain('GET /api/staff/adjustments?status=rejected');
  });

  it('applies an ask within the threshold at once, sent for the player found with an Idempotency-Key', async () => {
    signIn('staff-finance');
    const { events } = await openPage();
    const form = await fillAsk(events, { player: 'QuenManAp', kp: '50.000', reason: 'Bồi hoàn sự cố nạp' });

    expect(await screen.findByText('Đã áp dụng điều chỉnh +50.000 KP cho QuenManAp.')).toBeInTheDocument();
    expect(asks()).toHaveLength(1);
    expect(asks()[0]!.body).toEqual({ userId: FINANCE_PLAYERS.quenmanap.id, kp: 50_000, reason: 'Bồi hoàn sự cố nạp' });
    expect(asks()[0]!.key).toMatch(UUID);
    expect(financeDb.calls.map(({ call }) => call)).toContain('GET /api/staff/players?q=quenmanap');
    // The form is empty for the next one; the list shows it applied.
    await waitFor(() => expect(within(form).getByRole('textbox', { name: /Số KP/ })).toHaveValue(''));
    const list = await screen.findByRole('list', { name: 'Danh sách điều chỉnh KP' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('Đã áp dụng');
  });

  it('leaves an ask above the threshold pending, its own approval disabled and said why', async () => {
    signIn('staff-finance');
    const { events } = await openPage();
    await fillAsk(events, { player: 'minhtran', kp: '-250000', reason: 'Thu hồi KP nạp trùng' });

    expect(
      await screen.findByText('Đã gửi yêu cầu điều chỉnh -250.000 KP cho minhtran; chờ một nhân viên Tài chính khác duyệt.'),
    ).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Danh sách điều chỉnh KP' });
    const item = within(list).getByRole('listitem');
    expect(item).toHaveTextContent('Chờ duyệt');
    expect(item).toHaveTextContent('staff-finance (bạn)');
    const approve = within(item).getByRole('button', { name: 'Duyệt' });
    expect(approve).toBeDisabled();
    expect(within(item).getByRole('button', { name: 'Từ chối' })).toBeDisabled();
    expect(approve).toHaveAccessibleDescription('Bạn không thể tự duyệt yêu cầu của mình');
  });

  it('lets another finance member approve a pending one, which the server applies', async () => {
    const pending = buildAdjustment({ status: 'pending', kp: 250_000, userId: FINANCE_PLAYERS.lanvu.id });
    financeDb.adjustments = [pending];
    signIn('staff-finance2');
    const { events } = await openPage();
    const item = await waitFor(() => adjustmentItem(pending.id));
    await waitFor(() => expect(item).toHaveTextContent('lanvu'));
    await events.click(within(item).getByRole('button', { name: 'Duyệt' }));

    const dialog = await screen.findByRole('dialog', { name: 'Duyệt điều chỉnh KP' });
    expect(dialog).toHaveTextContent('Duyệt điều chỉnh +250.000 KP cho người chơi lanvu?');
    await events.click(within(dialog).getByRole('button', { name: 'Duyệt' }));

    expect(await screen.findByText('Đã duyệt điều chỉnh +250.000 KP cho lanvu.')).toBeInTheDocument();
    await waitFor(() => expect(adjustmentItem(pending.id)).toHaveTextContent('Đã áp dụng'));
    expect(adjustmentItem(pending.id)).toHaveTextContent('Người duyệtstaff-finance2');
    expect(financeDb.calls.map(({ call }) => call)).toContain(`POST /api/staff/adjustments/${pending.id}/approve`);
  });

  it('rejects one after a warning; its own pending one stays disabled', async () => {
    const member = signIn('staff-finance2');
    const others = buildAdjustment({ status: 'pending', kp: 300_000 });
    // Asked by this member, though the page offers nothing for it: the server refuses it too.
    const own = buildAdjustment({ status: 'pending', kp: 400_000, requestedBy: member.id, requestedByUsername: member.username });
    financeDb.adjustments = [others, own];
    const { events } = await openPage();
    await events.click(within(await waitFor(() => adjustmentItem(others.id))).getByRole('button', { name: 'Từ chối' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Từ chối điều chỉnh KP?' });
    await events.click(within(dialog).getByRole('button', { name: 'Từ chối' }));
    expect(await screen.findByText(/^Đã từ chối điều chỉnh \+300\.000 KP cho/)).toBeInTheDocument();
    await waitFor(() => expect(adjustmentItem(others.id)).toHaveTextContent('Đã từ chối'));

    // Its own stays disabled, with why.
    const ownItem = adjustmentItem(own.id);
    expect(within(ownItem).getByRole('button', { name: 'Duyệt' })).toBeDisabled();
    expect(ownItem).toHaveTextContent('Bạn không thể tự duyệt yêu cầu của mình');
  });

  it("shows the server's refusal when an approval is refused all the same", async () => {
    signIn('staff-finance2');
    const pending = buildAdjustment({ status: 'pending', kp: 300_000 });
    financeDb.adjustments = [pending];
    server.use(
      http.post('/api/staff/adjustments/:id/approve', () => HttpResponse.json({ message: OWN_ADJUSTMENT }, { status: 403 })),
    );
    const { events } = await openPage();
    await events.click(within(await waitFor(() => adjustmentItem(pending.id))).getByRole('button', { name: 'Duyệt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Duyệt điều chỉnh KP' });
    await events.click(within(dialog).getByRole('button', { name: 'Duyệt' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Không duyệt được');
    expect(alert).toHaveTextContent(OWN_ADJUSTMENT);
  });

  it('says in Vietnamese what is wrong with the form before sending it', async () => {
    signIn('staff-finance');
    const { events } = await openPage();
    const form = await fillAsk(events, { player: '', kp: '', reason: '' });
    expect(await within(form).findByText('Hãy nhập tên đăng nhập của người chơi.')).toBeInTheDocument();
    expect(within(form).getByText('Hãy nhập số KP.')).toBeInTheDocument();
    expect(within(form).getByText('Hãy nhập lý do.')).toBeInTheDocument();

    await fillAsk(events, { player: 'quenmanap', kp: '12,5 KP', reason: 'Bồi hoàn' });
    expect(await within(form).findByText('Số KP là một số nguyên, có dấu trừ (-) ở đầu nếu thu hồi.')).toBeInTheDocument();
    await fillAsk(events, { player: 'quenmanap', kp: '0', reason: 'Bồi hoàn' });
    expect(await within(form).findByText('Số KP phải khác 0.')).toBeInTheDocument();
    await fillAsk(events, { player: 'quenmanap', kp: '-2000000000', reason: 'Bồi hoàn' });
    expect(await within(form).findByText('Mỗi lần điều chỉnh không quá 1.000.000.000 KP.')).toBeInTheDocument();
    expect(asks()).toHaveLength(0);

    await fillAsk(events, { player: 'khongai', kp: '1000', reason: 'Bồi hoàn' });
    expect(await within(form).findByText('Không tìm thấy người chơi có tên đăng nhập này.')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: /Tên đăng nhập người chơi/ })).toHaveFocus();
    expect(asks()).toHaveLength(0);
  });

  it("puts the server's field refusals beside their fields", async () => {
    signIn('staff-finance');
    server.use(
      http.post('/api/staff/adjustments', () =>
        HttpResponse.json({ message: ADJUSTMENT_KP, errors: { kp: [ADJUSTMENT_KP] } }, { status: 422 }),
      ),
    );
    const { events } = await openPage();
    const form = await fillAsk(events, { player: 'quenmanap', kp: '1000', reason: 'Bồi hoàn' });
    expect(await within(form).findByText(ADJUSTMENT_KP)).toBeInTheDocument();
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('sends the same ask again with the same Idempotency-Key after a failure, and a new ask with a new one', async () => {
    signIn('staff-finance');
    let failed = false;
    server.use(
      http.post('/api/staff/adjustments', ({ request }) => {
        if (failed) return undefined;
        failed = true;
        financeDb.calls.push({ call: 'POST /api/staff/adjustments', key: request.headers.get('Idempotency-Key') });
        return HttpResponse.json({ message: 'Hệ thống đang bận, vui lòng thử lại sau.' }, { status: 503 });
      }),
    );
    const { events } = await openPage();
    const form = await fillAsk(events, { player: 'quenmanap', kp: '10000', reason: 'Bồi hoàn' });
    expect(await within(form).findByRole('alert')).toHaveTextContent('Hệ thống đang bận, vui lòng thử lại sau.');
    await events.click(within(form).getByRole('button', { name: 'Gửi yêu cầu' }));
    expect(await screen.findByText('Đã áp dụng điều chỉnh +10.000 KP cho quenmanap.')).toBeInTheDocument();

    await fillAsk(events, { player: 'quenmanap', kp: '10000', reason: 'Bồi hoàn' });
    await waitFor(() => expect(asks()).toHaveLength(3));
    const [first, retry, next] = asks().map(({ key }) => key);
    expect(first).toMatch(UUID);
    expect(retry).toBe(first);
    expect(next).toMatch(UUID);
    expect(next).not.toBe(first);
  });

  it('asks for the password again when the server wants it, and resends the ask with its key', async () => {
    signInStaff('staff-finance');
    const { events } = await openPage();
    await fillAsk(events, { player: 'quenmanap', kp: '5000', reason: 'Bồi hoàn' });
    const reauth = await screen.findByRole('dialog', { name: 'Xác thực lại' });
    await events.type(within(reauth).getByLabelText(/Mật khẩu hoặc mã xác thực/, { selector: 'input' }), STAFF_PASSWORD);
    await events.click(within(reauth).getByRole('button', { name: 'Xác nhận' }));

    expect(await screen.findByText('Đã áp dụng điều chỉnh +5.000 KP cho quenmanap.')).toBeInTheDocument();
    const [refused, resent] = asks();
    expect(resent?.key).toBe(refused?.key);
    expect(financeDb.adjustments).toHaveLength(1);
  });

  it("prefills the player from the link a player's page gives", async () => {
    signIn('staff-finance');
    await openPage('/staff/adjustments?player=minhtran');
    const form = await screen.findByRole('form', { name: 'Tạo điều chỉnh KP' });
    expect(within(form).getByRole('textbox', { name: /Tên đăng nhập người chơi/ })).toHaveValue('minhtran');
  });
});
