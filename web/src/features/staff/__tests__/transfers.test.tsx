import { beforeEach, describe, expect, it } from 'vitest';

import {
  FINANCE_PLAYERS,
  OTHER_FINANCE,
  PLAYER_NOT_FOUND,
  TRANSFER_ALREADY_MATCHED,
  TRANSFER_ASKED_FOR_ANOTHER,
  TRANSFER_NOT_OURS,
  buildTransfer,
  financeDb,
  signInFinance,
} from '@/testing/mocks/staff-finance-handlers';
import { STAFF_PASSWORD, STAFF_REAUTH_NEEDED, signInStaff } from '@/testing/mocks/staff-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { viewportWidth } from '@/testing/viewport';

/** A transfer of the list, by its reference code. */
function transferItem(reference: string): HTMLElement {
  const item = screen.getAllByRole('listitem').find((each) => each.dataset.transfer === reference);
  if (!item) throw new Error(`no transfer ${reference}`);
  return item;
}

/** The seeded queue: named by username, naming two codes, and one that cannot be credited. */
const byUsername = () => financeDb.transfers[0]!;
const twoCodes = () => financeDb.transfers[1]!;
const notCreditable = () => financeDb.transfers[2]!;
const matches = () => financeDb.calls.filter(({ call }) => call.endsWith('/match'));
/**
 * The queue's count, a status of its own: not `getByRole('status')`, which a toast (a status too)
 * shown after a credit would also match until it has left the page.
 */
const queueCount = () => screen.getByText(/^\d+ chuyển khoản\.$/);

async function openQueue(url = '/staff/transfers') {
  const rendered = renderApp(url);
  await screen.findByRole('list', { name: /Danh sách chuyển khoản/ });
  return rendered;
}

beforeEach(() => viewportWidth(1280));

describe('unmatched transfers', () => {
  it('lists each transfer with its facts, why it matched nobody, and whom it may be for and why', async () => {
    signInFinance();
    await openQueue();

    expect(screen.getByRole('heading', { level: 1, name: 'Chuyển khoản chưa khớp' })).toBeInTheDocument();
    expect(queueCount()).toHaveTextContent('3 chuyển khoản.');
    expect(queueCount()).toHaveAttribute('role', 'status');
    const first = transferItem(byUsername().referenceCode);
    expect(first).toHaveTextContent('50.000 VND');
    expect(first).toHaveTextContent('vietcombank');
    expect(first).toHaveTextContent('nap tien quenmanap');
    expect(first).toHaveTextContent('1023456789');
    expect(first).toHaveTextContent('50.000 KP');
    // Received at 02:00:05 UTC: 09:00:05 in Vietnam.
    expect(first).toHaveTextContent('28/11/2026 09:00:05');
    expect(first).toHaveTextContent('Nội dung chuyển khoản không chứa mã nạp của người chơi nào.');
    expect(first).toHaveTextContent('Nội dung có ghi đúng tên đăng nhập của người chơi này.');
    expect(within(first).getByRole('button', { name: 'Ghi có cho quenmanap' })).toBeInTheDocument();

    const second = transferItem(twoCodes().referenceCode);
    const suggestions = within(second).getAllByRole('listitem');
    expect(suggestions.map((each) => each.dataset.suggestion)).toEqual(['quenmanap', 'minhtran']);
    expect(suggestions[0]).toHaveTextContent('Nội dung có mã nạp KIDQM7K2PX của người chơi này, cùng với mã của người khác.');

    // No bank known and no KP to credit: said, and nothing to press.
    const third = transferItem(notCreditable().referenceCode);
    expect(third).toHaveTextContent('Ngân hàng hoặc ví nhận tiền không có trong danh sách phương thức nạp.');
    expect(third).toHaveTextContent('Nội dung có một mã chỉ khác mã nạp KIDMT4R8ZY của người chơi này một ký tự');
    expect(third).toHaveTextContent('Không thể ghi có giao dịch này');
    expect(within(third).queryByRole('button')).toBeNull();
    expect(within(third).queryByRole('textbox')).toBeNull();
  });

  it('shows the transfers matched by hand under Đã khớp, as a link of its own', async () => {
    signInFinance();
    const { events, router } = await openQueue();
    await events.click(screen.getByRole('button', { name: 'Đã khớp' }));

    const list = await screen.findByRole('list', { name: 'Danh sách chuyển khoản đã khớp' });
    expect(router.state.location.search).toBe('?matched=true');
    expect(screen.getByRole('button', { name: 'Đã khớp' })).toHaveAttribute('aria-pressed', 'true');
    const matched = within(list).getAllByRole('listitem');
    expect(matched).toHaveLength(1);
    expect(matched[0]).toHaveTextContent('Đã ghi có cho lanvu lúc 27/11/2026 15:15:00');
    expect(within(matched[0]!).queryByRole('button')).toBeNull();
  });

  it('credits a suggested player after a confirmation naming the amount and the player', async () => {
    signInFinance();
    const { events } = await openQueue();
    const transfer = byUsername();
    await events.click(within(transferItem(transfer.referenceCode)).getByRole('button', { name: 'Ghi có cho quenmanap' }));

    const dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    expect(dialog).toHaveTextContent(
      `Ghi có chuyển khoản 50.000 VND (mã tham chiếu ${transfer.referenceCode}) cho người chơi quenmanap?`,
    );
    expect(dialog).toHaveTextContent('Người chơi nhận 50.000 KP');
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));

    expect(await screen.findByText('Đã ghi có 50.000 KP cho quenmanap.')).toBeInTheDocument();
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(matches().map(({ call, body }) => [call, body])).toEqual([
      [`POST /api/staff/transfers/${transfer.id}/match`, { player: 'quenmanap' }],
    ]);
    // The queue is read again: the transfer has left it.
    await waitFor(() => expect(queueCount()).toHaveTextContent('2 chuyển khoản.'));
    expect(screen.getAllByRole('listitem').some((each) => each.dataset.transfer === transfer.referenceCode)).toBe(false);
  });

  it('credits a username typed instead, and shows the refusal when there is no such player', async () => {
    signInFinance();
    const { events } = await openQueue();
    const item = transferItem(twoCodes().referenceCode);
    const field = within(item).getByRole('textbox', { name: 'Ghi có cho người chơi khác' });

    await events.click(within(item).getByRole('button', { name: 'Ghi có' }));
    expect(await within(item).findByText('Hãy nhập tên đăng nhập của người chơi.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();

    await events.type(field, 'khongai');
    await events.click(within(item).getByRole('button', { name: 'Ghi có' }));
    let dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    expect(dialog).toHaveTextContent('cho người chơi khongai?');
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(PLAYER_NOT_FOUND);
    await events.click(within(dialog).getByRole('button', { name: 'Hủy' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await events.clear(field);
    await events.type(field, 'LanVu');
    await events.click(within(item).getByRole('button', { name: 'Ghi có' }));
    dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));
    expect(await screen.findByText('Đã ghi có 100.000 KP cho lanvu.')).toBeInTheDocument();
    expect(financeDb.transfers[1]).toMatchObject({ status: 'credited', userId: FINANCE_PLAYERS.lanvu.id });
  });

  it("shows the server's 409 when the transfer went to someone else meanwhile", async () => {
    signInFinance();
    const { events } = await openQueue();
    const transfer = byUsername();
    financeDb.transfers[0] = { ...transfer, status: 'credited', userId: FINANCE_PLAYERS.minhtran.id, username: 'minhtran' };
    await events.click(within(transferItem(transfer.referenceCode)).getByRole('button', { name: 'Ghi có cho quenmanap' }));
    const dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Không ghi có được');
    expect(alert).toHaveTextContent(TRANSFER_ALREADY_MATCHED);
  });

  it('asks for the password again when the server wants it, then credits', async () => {
    signInStaff('staff-finance');
    const { events } = await openQueue();
    await events.click(within(transferItem(byUsername().referenceCode)).getByRole('button', { name: 'Ghi có cho quenmanap' }));
    const dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));

    const reauth = await screen.findByRole('dialog', { name: 'Xác thực lại' });
    expect(reauth).toHaveTextContent(STAFF_REAUTH_NEEDED);
    await events.type(within(reauth).getByLabelText(/Mật khẩu hoặc mã xác thực/, { selector: 'input' }), STAFF_PASSWORD);
    await events.click(within(reauth).getByRole('button', { name: 'Xác nhận' }));

    expect(await screen.findByText('Đã ghi có 50.000 KP cho quenmanap.')).toBeInTheDocument();
    expect(matches().map(({ body }) => body)).toEqual([{ player: 'quenmanap' }, { player: 'quenmanap' }]);
  });

  it.each(['staff-viewer', 'staff-support', 'staff-admin'])('offers %s no way to credit', async (username) => {
    signInStaff(username);
    await openQueue();
    expect(screen.getByText('Chỉ vai trò Tài chính ghi có được chuyển khoản; bạn chỉ xem.')).toBeInTheDocument();
    expect(transferItem(byUsername().referenceCode)).toHaveTextContent('quenmanap');
    expect(within(screen.getByRole('list', { name: 'Danh sách chuyển khoản chưa khớp' })).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});

describe('maker-checker on matching', () => {
  const { quenmanap, minhtran, lanvu } = FINANCE_PLAYERS;

  /** 250,000 KP, past the approval threshold alone, naming minhtran; asked for by `askedBy` if told. */
  function addLargeTransfer(askedBy?: string) {
    const transfer = buildTransfer({
      amountVnd: 250_000,
      kp: 250_000,
      content: 'nap tien minhtran',
      suggestions: [{ userId: minhtran.id, username: minhtran.username, code: '', why: 'content_names_username' }],
      pendingMatch: askedBy
        ? { userId: minhtran.id, username: minhtran.username, askedByUsername: askedBy, askedAt: '2026-11-28T03:30:00Z' }
        : null,
    });
    financeDb.transfers.push(transfer);
    return transfer;
  }

  const stored = (id: string) => financeDb.transfers.find((each) => each.id === id)!;

  it('only asks for a match past the threshold: the notice says so, the queue shows it pending, nothing is credited', async () => {
    signInFinance();
    const transfer = addLargeTransfer();
    const { events } = await openQueue();
    await events.click(within(transferItem(transfer.referenceCode)).getByRole('button', { name: 'Ghi có cho minhtran' }));
    const dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    expect(dialog).toHaveTextContent('Ghi có chuyển khoản 250.000 VND');
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));

    expect(
      await screen.findByText('Đã gửi yêu cầu ghi có 250.000 KP cho minhtran; chờ một nhân viên Tài chính khác duyệt.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^Đã ghi có/)).toBeNull();
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    // Read again: still in the queue, now waiting for someone else.
    await waitFor(() =>
      expect(transferItem(transfer.referenceCode)).toHaveTextContent(
        /Chờ duyệt: ghi có cho minhtran, yêu cầu bởi staff-finance lúc \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/,
      ),
    );
    expect(screen.getByText('4 chuyển khoản.')).toBeInTheDocument();
    expect(stored(transfer.id)).toMatchObject({ status: 'unmatched', userId: '', pendingMatch: { userId: minhtran.id } });
    expect(financeDb.matchedAlone).toEqual([]);
  });

  it('lets another finance member approve it, for its player only, which credits it', async () => {
    signInFinance(OTHER_FINANCE);
    const transfer = addLargeTransfer('staff-finance');
    const { events } = await openQueue();
    const item = transferItem(transfer.referenceCode);
    // Asked at 03:30 UTC: 10:30 in Vietnam.
    expect(item).toHaveTextContent('Chờ duyệt: ghi có cho minhtran, yêu cầu bởi staff-finance lúc 28/11/2026 10:30:00');
    // Approving it for its player is the only way forward.
    expect(within(item).getAllByRole('button').map((button) => button.textContent)).toEqual(['Duyệt ghi có cho minhtran']);
    expect(within(item).queryByRole('textbox')).toBeNull();
    expect(item).not.toHaveTextContent('Đang chờ một nhân viên Tài chính khác duyệt');

    await events.click(within(item).getByRole('button', { name: 'Duyệt ghi có cho minhtran' }));
    const dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    expect(dialog).toHaveTextContent(
      `Ghi có chuyển khoản 250.000 VND (mã tham chiếu ${transfer.referenceCode}) cho người chơi minhtran?`,
    );
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));

    expect(await screen.findByText('Đã ghi có 250.000 KP cho minhtran.')).toBeInTheDocument();
    expect(matches().map(({ call, body }) => [call, body])).toEqual([
      [`POST /api/staff/transfers/${transfer.id}/match`, { player: 'minhtran' }],
    ]);
    expect(stored(transfer.id)).toMatchObject({ status: 'credited', userId: minhtran.id, pendingMatch: null });
    await waitFor(() => expect(queueCount()).toHaveTextContent('3 chuyển khoản.'));
  });

  it('shows its asker no approve button, and lets them ask for another player instead', async () => {
    signInFinance();
    const transfer = addLargeTransfer('staff-finance');
    const { events } = await openQueue();
    const item = transferItem(transfer.referenceCode);
    expect(item).toHaveTextContent('Chờ duyệt: ghi có cho minhtran, yêu cầu bởi staff-finance');
    expect(item).toHaveTextContent('Đang chờ một nhân viên Tài chính khác duyệt');
    expect(within(item).queryByRole('button', { name: /Duyệt/ })).toBeNull();

    // Asking again for the same player changes nothing.
    await events.click(within(item).getByRole('button', { name: 'Ghi có cho minhtran' }));
    let dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));
    expect(
      await screen.findByText(
        'Yêu cầu ghi có 250.000 KP cho minhtran đã được gửi trước đó; vẫn chờ một nhân viên Tài chính khác duyệt.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(dialog).not.toBeInTheDocument());

    // Another player replaces the ask.
    await events.type(within(item).getByRole('textbox', { name: 'Ghi có cho người chơi khác' }), 'lanvu');
    await events.click(within(item).getByRole('button', { name: 'Ghi có' }));
    dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));
    expect(
      await screen.findByText('Đã gửi yêu cầu ghi có 250.000 KP cho lanvu; chờ một nhân viên Tài chính khác duyệt.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(transferItem(transfer.referenceCode)).toHaveTextContent('Chờ duyệt: ghi có cho lanvu, yêu cầu bởi staff-finance'),
    );
    expect(stored(transfer.id)).toMatchObject({ status: 'unmatched', pendingMatch: { userId: lanvu.id } });
  });

  it('asks for a small match too once the member matched alone past the threshold within 24 hours', async () => {
    const member = signInFinance();
    financeDb.matchedAlone.push({ staffId: member.id, userId: lanvu.id, kp: 180_000, at: Date.now() - 60 * 60_000 });
    const { events } = await openQueue();
    const transfer = byUsername();
    await events.click(within(transferItem(transfer.referenceCode)).getByRole('button', { name: 'Ghi có cho quenmanap' }));
    const dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));

    expect(
      await screen.findByText('Đã gửi yêu cầu ghi có 50.000 KP cho quenmanap; chờ một nhân viên Tài chính khác duyệt.'),
    ).toBeInTheDocument();
    expect(stored(transfer.id)).toMatchObject({ status: 'unmatched', pendingMatch: { userId: quenmanap.id } });
  });

  it("shows the server's 409 for a transfer paid into none of our accounts", async () => {
    signInFinance();
    const transfer = buildTransfer({
      accountNumber: '9999999999',
      reason: 'not one of our accounts',
      content: 'nap tien quenmanap',
      suggestions: [{ userId: quenmanap.id, username: quenmanap.username, code: '', why: 'content_names_username' }],
    });
    financeDb.transfers.push(transfer);
    const { events } = await openQueue();
    const item = transferItem(transfer.referenceCode);
    expect(item).toHaveTextContent('Tiền chuyển vào một số tài khoản không phải của Kid.');
    await events.click(within(item).getByRole('button', { name: 'Ghi có cho quenmanap' }));
    const dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Không ghi có được');
    expect(alert).toHaveTextContent(TRANSFER_NOT_OURS);
    expect(stored(transfer.id)).toMatchObject({ status: 'unmatched', pendingMatch: null });
  });

  it("shows the server's 409 when another member asked for another player meanwhile", async () => {
    signInFinance(OTHER_FINANCE);
    const { events } = await openQueue();
    const transfer = twoCodes();
    // Asked for after the queue was read: the card still offers every player.
    financeDb.transfers[1] = {
      ...transfer,
      pendingMatch: { userId: minhtran.id, username: 'minhtran', askedByUsername: 'staff-finance', askedAt: '2026-11-28T03:30:00Z' },
    };
    await events.click(within(transferItem(transfer.referenceCode)).getByRole('button', { name: 'Ghi có cho quenmanap' }));
    const dialog = await screen.findByRole('dialog', { name: 'Xác nhận ghi có' });
    await events.click(within(dialog).getByRole('button', { name: 'Ghi có' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(TRANSFER_ASKED_FOR_ANOTHER);
    expect(stored(transfer.id)).toMatchObject({ status: 'unmatched', pendingMatch: { userId: minhtran.id } });
  });

  it('shows other roles the pending match, with nothing to press', async () => {
    signInStaff('staff-viewer');
    const transfer = addLargeTransfer('staff-finance');
    await openQueue();
    const item = transferItem(transfer.referenceCode);
    expect(item).toHaveTextContent('Chờ duyệt: ghi có cho minhtran, yêu cầu bởi staff-finance lúc 28/11/2026 10:30:00');
    expect(item).not.toHaveTextContent('Đang chờ một nhân viên Tài chính khác duyệt');
    expect(within(item).queryByRole('button')).toBeNull();
  });
});
