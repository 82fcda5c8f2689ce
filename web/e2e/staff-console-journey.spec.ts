import type { Locator, Page } from '@playwright/test';

import {
  DESKTOP,
  expect,
  expectNoSidewaysScroll,
  PHONE,
  screenshotAtWidth,
  signInAsDemo,
  test,
  waitForMail,
} from './fixtures';
import { appCode, FORBIDDEN, navLinks, openSection, REAUTH_NEEDED, signIn, STAFF_PASSWORD } from './staff-fixtures';

/** A member's row of the staff list: the table's on a wide screen, the stacked block on a phone. */
const memberRow = (page: Page, username: string) => page.locator(`[data-member="${username}"]`);

/** The newest enrolment link mailed to `email` other than `seen`: {portal}/staff/enrol#{token}. */
async function enrolmentLink(page: Page, email: string, seen?: URL): Promise<URL> {
  const isNew = (link: string) => link.includes('/staff/enrol#') && new URL(link).hash !== seen?.hash;
  const mail = await waitForMail(page, email, (candidate) => (candidate.link ? isNew(candidate.link) : false), 'staff enrolment link');
  return new URL(mail.link!);
}

/** The field-by-field change table of an audit entry, as [field, before, after] rows by field. */
async function changes(entry: Locator): Promise<string[][]> {
  const rows = entry.getByRole('table', { name: 'Dữ liệu thay đổi' }).locator('tbody tr');
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
  return cells.sort(([a = ''], [b = '']) => a.localeCompare(b));
}

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`an admin adds a staff member, who enrols by mail, then manages them and reads it in the audit log; a viewer and a player cannot (${name})`, async ({
    page,
    newDevice,
  }) => {
    // A second sign-in of a member within a 30-second step waits for the next one.
    test.setTimeout(240_000);
    const phone = viewport === PHONE;
    await page.setViewportSize(viewport);

    // The console has a sign-in of its own.
    await page.goto('/staff');
    await expect(page).toHaveURL(/\/staff\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' })).toBeVisible();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'staff-sign-in');

    // The admin, with the authenticator app's code.
    await signIn(page, 'staff-admin');
    await expect(page).toHaveURL(/\/staff$/);
    const header = page.getByRole('banner');
    await expect(header.getByText('staff-admin', { exact: true })).toBeVisible();
    await expect(header.getByText('Quản trị', { exact: true })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByText('Bạn đang làm việc với vai trò Quản trị.')).toBeVisible();
    await expect(main.getByRole('link', { name: /Nhân viên/ })).toBeVisible();
    await expect(main.getByRole('link', { name: /Nhật ký thao tác/ })).toBeVisible();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'staff-home');

    // A new member: the admin gives their email and never sees a credential of theirs.
    await openSection(page, phone, 'Nhân viên');
    const username = `e2e-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const email = `${username}@staff.kid.test`;
    await page.getByRole('button', { name: 'Thêm nhân viên' }).click();
    const form = page.getByRole('dialog', { name: 'Thêm nhân viên' });
    await form.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(username);
    await form.getByRole('combobox', { name: 'Vai trò' }).selectOption({ label: 'Hỗ trợ' });
    await form.getByRole('textbox', { name: 'Địa chỉ email' }).fill(email);
    const createdAnswer = page.waitForResponse((response) => response.url().endsWith('/api/staff/staff') && response.request().method() === 'POST');
    await form.getByRole('button', { name: 'Tạo tài khoản' }).click();
    const created = (await (await createdAnswer).json()) as { staff: { id: string } };
    const member = created.staff;
    expect(Object.keys(created)).toEqual(['staff']);
    await expect(
      page.getByText(
        `Đã tạo tài khoản ${username}. Đường dẫn đăng ký đã được gửi tới ${email} (có hiệu lực 24 giờ, dùng một lần).`,
      ),
    ).toBeVisible();
    await expect(form).toBeHidden();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.getByTestId('staff-totp-secret')).toHaveCount(0);
    await expect(memberRow(page, username)).toContainText('Hỗ trợ');
    await expect(memberRow(page, username)).toContainText(email);
    await expect(memberRow(page, username)).toContainText('Chờ đăng ký');

    // The member opens the mailed link in their own browser: the token is in the fragment,
    // which the page takes out of the address bar once read.
    const link = await enrolmentLink(page, email);
    expect(link.pathname).toBe('/staff/enrol');
    const memberPage = await newDevice();
    await memberPage.setViewportSize(viewport);
    await memberPage.goto(`${link.pathname}${link.hash}`);
    await expect(memberPage.getByRole('heading', { level: 1, name: 'Đăng ký tài khoản nhân viên' })).toBeVisible();
    await expect(
      memberPage.getByText(
        `Xin chào ${username}. Thêm tài khoản vào ứng dụng xác thực bằng mã QR hoặc khóa bí mật dưới đây, rồi đặt mật khẩu của bạn.`,
      ),
    ).toBeVisible();
    await expect(
      memberPage.getByRole('img', { name: `Mã QR để thêm tài khoản nhân viên ${username} vào ứng dụng xác thực` }),
    ).toBeVisible();
    await expect(memberPage.getByText(/^Đường dẫn có hiệu lực đến \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeVisible();
    await expect(memberPage).toHaveURL(/\/staff\/enrol$/);
    const secret = (await memberPage.getByTestId('staff-totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectNoSidewaysScroll(memberPage, viewport.width);
    await screenshotAtWidth(memberPage, 'staff-enrol');

    // They add the secret to their app, set their own password and confirm with the app's code.
    const memberPassword = `Enrol-${Date.now()}#Aa9`;
    await memberPage.getByLabel(/^Mật khẩu mới/).fill(memberPassword);
    await memberPage.getByLabel(/^Nhập lại mật khẩu/).fill(memberPassword);
    await memberPage.getByRole('textbox', { name: 'Mã xác thực' }).fill(await appCode(memberPage, username, secret));
    await memberPage.getByRole('button', { name: 'Hoàn tất đăng ký' }).click();
    await expect(memberPage).toHaveURL(/\/staff\/login$/);
    await expect(
      memberPage.getByText('Đăng ký xong. Hãy đăng nhập bằng mật khẩu mới và mã từ ứng dụng xác thực.'),
    ).toBeVisible();
    await expectNoSidewaysScroll(memberPage, viewport.width);

    // Then they sign in with them (a later step's code: the enrolment took the one it used).
    await signIn(memberPage, username, { password: memberPassword, secret });
    await expect(memberPage.getByText('Bạn đang làm việc với vai trò Hỗ trợ.')).toBeVisible();
    await page.reload();
    await expect(memberRow(page, username)).toContainText(email);
    await expect(memberRow(page, username)).not.toContainText('Chờ đăng ký');

    // Changing the role, with the server asking (as it will before money moves) for the
    // password again: the dialog takes it and the change goes through.
    let refused = false;
    await page.route(/\/api\/staff\/staff\/[^/?]+$/, async (route) => {
      if (route.request().method() !== 'PATCH' || refused) return route.fallback();
      refused = true;
      return route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ message: REAUTH_NEEDED, code: 'reauth_required' }),
      });
    });
    const actions = page.getByRole('group', { name: `Thao tác với ${username}` });
    await actions.getByRole('button', { name: 'Đổi vai trò' }).click();
    const roleDialog = page.getByRole('dialog', { name: `Đổi vai trò của ${username}` });
    await roleDialog.getByRole('combobox', { name: 'Vai trò mới' }).selectOption({ label: 'Tài chính' });
    await roleDialog.getByRole('button', { name: 'Lưu' }).click();
    const reauth = page.getByRole('dialog', { name: 'Xác thực lại' });
    await expect(reauth).toBeVisible();
    await expect(reauth.getByText(REAUTH_NEEDED)).toBeVisible();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'staff-reauth');
    await reauth.getByLabel(/^Mật khẩu hoặc mã xác thực/).fill(STAFF_PASSWORD);
    await reauth.getByRole('button', { name: 'Xác nhận' }).click();
    await expect(reauth).toBeHidden();
    await expect(page.getByText(`Đã đổi vai trò của ${username} thành Tài chính.`)).toBeVisible();
    await expect(roleDialog).toBeHidden();
    await expect(memberRow(page, username)).toContainText('Tài chính');
    expect(refused).toBe(true);
    await page.unrouteAll();

    // Resetting the member's credentials, after saying what it does: their password and app stop
    // working, their open session ends, and a new link goes to their email.
    await actions.getByRole('button', { name: 'Đặt lại đăng nhập' }).click();
    const resetConfirm = page.getByRole('alertdialog', { name: `Đặt lại thông tin đăng nhập của ${username}?` });
    await expect(resetConfirm).toContainText('một đường dẫn đăng ký mới được gửi tới email của họ');
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'staff-reset');
    await resetConfirm.getByRole('button', { name: 'Đặt lại' }).click();
    await expect(page.getByText(`Đã gửi đường dẫn đăng ký mới tới ${email}.`)).toBeVisible();
    await expect(resetConfirm).toBeHidden();
    await expect(memberRow(page, username)).toContainText('Chờ đăng ký');
    expect((await enrolmentLink(page, email, link)).pathname).toBe('/staff/enrol');
    await memberPage.reload();
    await expect(memberPage).toHaveURL(/\/staff\/login(\?|$)/);
    await expect(memberPage.getByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' })).toBeVisible();

    // Disabling, after saying what it does.
    await actions.getByRole('button', { name: 'Khóa' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Khóa tài khoản ${username}?` });
    await confirm.getByRole('button', { name: 'Khóa tài khoản' }).click();
    await expect(page.getByText(`Đã khóa tài khoản ${username}.`)).toBeVisible();
    await expect(memberRow(page, username)).toContainText('Đã khóa');
    await expect(actions.getByRole('button', { name: 'Mở khóa' })).toBeVisible();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'staff-members');

    // The audit log has the six actions on the member, newest first, with before and after: the
    // admin's creation, role change, reset and disabling, and the member's enrolment and sign-in.
    await openSection(page, phone, 'Nhật ký thao tác');
    await page.getByRole('textbox', { name: 'Đối tượng' }).fill(`staff:${member.id}`);
    await page.getByRole('button', { name: 'Lọc' }).click();
    await expect(page).toHaveURL(new RegExp(`\\?subject=staff%3A${member.id}$`));
    const entries = page.getByRole('list', { name: 'Nhật ký thao tác' }).getByRole('listitem');
    await expect(entries).toHaveCount(6);
    await expect(entries.nth(0)).toContainText('Đổi vai trò hoặc trạng thái nhân viên');
    await expect(entries.nth(0)).toContainText('staff-admin');
    expect(await changes(entries.nth(0))).toEqual([
      ['disabled', 'false', 'true'],
      ['role', 'finance', 'finance'],
    ]);
    await expect(entries.nth(1)).toContainText('Đặt lại thông tin đăng nhập nhân viên');
    await expect(entries.nth(1)).toContainText('staff.reset_credentials');
    await expect(entries.nth(1)).toContainText('staff-admin');
    await expect(entries.nth(2)).toContainText('Đổi vai trò hoặc trạng thái nhân viên');
    expect(await changes(entries.nth(2))).toEqual([
      ['disabled', 'false', 'false'],
      ['role', 'support', 'finance'],
    ]);
    // The member's own actions: their sign-in, then (older) their enrolment.
    await expect(entries.nth(3)).toContainText('Đăng nhập');
    await expect(entries.nth(3)).toContainText('staff.sign_in');
    await expect(entries.nth(3)).toContainText(username);
    await expect(entries.nth(4)).toContainText('Nhân viên hoàn tất đăng ký');
    await expect(entries.nth(4)).toContainText('staff.enrol');
    await expect(entries.nth(4)).toContainText(username);
    await expect(entries.nth(5)).toContainText('Tạo tài khoản nhân viên');
    expect(await changes(entries.nth(5))).toEqual([
      ['disabled', '—', 'false'],
      ['email', '—', email],
      ['role', '—', 'support'],
      ['username', '—', username],
    ]);
    await expect(page.getByRole('link', { name: 'Tải CSV' })).toHaveAttribute(
      'href',
      `/api/staff/audit.csv?subject=staff%3A${member.id}`,
    );
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'staff-audit');
    // The whole log has the admin's sign-in and re-authentication too.
    await page.getByRole('button', { name: 'Bỏ lọc' }).click();
    await expect(entries.filter({ hasText: 'Xác thực lại' }).first()).toBeVisible();
    await expect(entries.filter({ hasText: 'Đăng nhập' }).first()).toBeVisible();

    // Signing out leads back to the console's sign-in.
    await header.getByRole('button', { name: 'Đăng xuất' }).click();
    await expect(page).toHaveURL(/\/staff\/login$/);

    // A viewer is not shown staff management, and opening it says the server's refusal.
    await signIn(page, 'staff-viewer');
    await expect(header.getByText('Chỉ xem', { exact: true })).toBeVisible();
    // Every section but staff management, in the order of config/nav-items.ts.
    await expect(await navLinks(page, phone)).toHaveText([
      'Trang đầu',
      'Tra cứu người chơi',
      'Yêu cầu hỗ trợ',
      'Chuyển khoản chưa khớp',
      'Điều chỉnh KP',
      'Nhật ký thao tác',
    ]);
    await expect(main.getByRole('link', { name: /Nhân viên/ })).toHaveCount(0);
    await page.goto('/staff/staff');
    await expect(page.getByRole('alert')).toContainText(FORBIDDEN);
    await expect(page.getByRole('button', { name: 'Thêm nhân viên' })).toHaveCount(0);
    await screenshotAtWidth(page, 'staff-viewer-refused');

    // A player signed in on the player's side is nobody in the console.
    const player = await newDevice();
    await player.setViewportSize(viewport);
    await signInAsDemo(player);
    await player.goto('/staff');
    await expect(player).toHaveURL(/\/staff\/login$/);
    await expect(player.getByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' })).toBeVisible();
  });
}
