import { deflateSync } from 'node:zlib';

import { request, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

import {
  DESKTOP,
  expect,
  expectNoSidewaysScroll,
  PHONE,
  registerNewPlayer,
  screenshotAtWidth,
  sendBankTransfer,
  test,
} from './fixtures';

const SPEC_TEXT = 'Trung tâm hỗ trợ đang trong quá trình phát triển.';
const NOT_AN_IMAGE = 'Tệp đính kèm phải là ảnh PNG, JPEG hoặc WebP';
const WAITING = 'Đang chờ hỗ trợ';
const ANSWERED = 'Đã trả lời';

/** The development staff (see the identity service's seed): one password and one app secret for all. */
const STAFF = { username: 'staff-support', password: 'Staff@123456' };
const STAFF_SECRET = Secret.fromBase32('JBSWY3DPEHPK3PXP');
const PERIOD_MS = 30_000;

/** CRC-32 (PNG's chunk checksum). */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A real PNG, made here: `width`×`height` pixels of RGB, an orange to dark gradient with a
 * white band, so that the screenshots show that the image arrived whole.
 */
function pngImage(width = 240, height = 120): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const rows: number[] = [];
  for (let y = 0; y < height; y += 1) {
    rows.push(0); // each row unfiltered
    for (let x = 0; x < width; x += 1) {
      const band = Math.abs(y - height / 2) < 6;
      const shade = 1 - x / width;
      rows.push(band ? 255 : Math.round(249 * shade), band ? 255 : Math.round(115 * shade), band ? 255 : Math.round(22 * shade));
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Support's side, through the console's API in a request context of its own (no cookie of the
 * player's): signed in once per run of this file. The server takes each step's app code once
 * per member, and the next step's too: when the current step's code was used already (another
 * journey signed this member in moments ago), the next step's is taken.
 */
let staffContext: APIRequestContext | undefined;

async function staffXsrf(context: APIRequestContext): Promise<string> {
  const cookie = (await context.storageState()).cookies.find((item) => item.name === 'STAFF-XSRF-TOKEN');
  if (!cookie) throw new Error('no STAFF-XSRF-TOKEN cookie');
  return decodeURIComponent(cookie.value);
}

async function signedInStaff(baseURL: string): Promise<APIRequestContext> {
  if (staffContext) return staffContext;
  const context = await request.newContext({ baseURL });
  const step = Math.floor(Date.now() / PERIOD_MS);
  for (const offset of [0, 1]) {
    await context.get('/api/staff/auth/csrf-cookie');
    const code = TOTP.generate({
      secret: STAFF_SECRET,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      timestamp: (step + offset) * PERIOD_MS,
    });
    const response = await context.post('/api/staff/auth/sign-in', {
      headers: { 'X-XSRF-TOKEN': await staffXsrf(context), Accept: 'application/json' },
      data: { ...STAFF, code },
    });
    if (response.ok()) {
      staffContext = context;
      return context;
    }
    if (response.status() !== 422) throw new Error(`staff sign-in: ${response.status()} ${await response.text()}`);
  }
  throw new Error('staff sign-in: neither app code was taken');
}

test.afterAll(async () => {
  await staffContext?.dispose();
  staffContext = undefined;
});

/** Support replies on the ticket, leaving it open for the player's answer. */
async function supportReplies(baseURL: string, ticketId: string, body: string) {
  const staff = await signedInStaff(baseURL);
  await staff.get('/api/staff/auth/csrf-cookie');
  const response = await staff.post(`/api/staff/tickets/${ticketId}/reply`, {
    headers: { 'X-XSRF-TOKEN': await staffXsrf(staff), Accept: 'application/json' },
    data: { body, close: false },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A bank transfer of `amount` VND from the bank feed, and the wait for it in the player's history. */
async function fundPlayer(page: Page, username: string, amount: number) {
  await sendBankTransfer(page, username, amount);
  // The wallet takes the payment's event a moment later.
  await expect
    .poll(
      async () => {
        const response = await page.request.get('/api/transactions?limit=5');
        return response.ok() ? ((await response.json()) as { items: unknown[] }).items.length : 0;
      },
      { message: 'the transfer in the history', timeout: 20_000, intervals: [250, 500, 1_000] },
    )
    .toBeGreaterThan(0);
}

const newTicketForm = (page: Page) => page.getByRole('region', { name: 'Tạo yêu cầu hỗ trợ' });
const myTickets = (page: Page) => page.getByRole('list', { name: 'Yêu cầu của tôi' });
const conversation = (page: Page) => page.getByRole('list', { name: 'Trao đổi' }).getByRole('listitem');

// Each run signs up a player of its own, who has no ticket yet.
for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a player opens a ticket about a top-up with an image, reads support's reply and answers (${name})`, async ({
    page,
    newDevice,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const player = await registerNewPlayer(page);
    await fundPlayer(page, player.username, 200_000);

    // The spec's page stays, with the ticket centre below it.
    await page.goto('/support');
    await expect(page.getByText(SPEC_TEXT)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Nhắn tin qua Messenger' })).toBeVisible();
    await expect(page.getByText('Bạn chưa có yêu cầu hỗ trợ nào.')).toBeVisible();

    const form = newTicketForm(page);
    const subject = `Chuyển khoản chưa nhận KP ${name}`;
    await form.getByRole('combobox', { name: /^Loại yêu cầu/ }).selectOption({ label: 'Nạp tiền chưa nhận được KP' });
    await form.getByRole('textbox', { name: /^Tiêu đề/ }).fill(subject);
    await form
      .getByRole('textbox', { name: /^Mô tả/ })
      .fill('Tôi đã chuyển khoản 200,000 VND qua Vietcombank.\nẢnh chụp biên lai ở dưới.');
    const transaction = form.getByRole('combobox', { name: /^Giao dịch liên quan/ });
    const option = transaction.locator('option', { hasText: 'Nạp KP · 200,000 VND' });
    await expect(option).toHaveCount(1);
    await transaction.selectOption({ label: (await option.textContent()) ?? '' });
    await form.getByLabel(/^Ảnh đính kèm/).setInputFiles({ name: 'bien-lai.png', mimeType: 'image/png', buffer: pngImage() });
    await expect(form.getByTestId('attachment-file')).toContainText('bien-lai.png');
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'support-form');
    await form.getByRole('button', { name: 'Gửi yêu cầu' }).click();

    await expect(page.getByText('Đã gửi yêu cầu hỗ trợ')).toBeVisible();
    const item = myTickets(page).getByRole('listitem').filter({ hasText: subject });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(WAITING);
    await expect(item).toContainText('Nạp tiền chưa nhận được KP');
    await expect(form.getByRole('textbox', { name: /^Tiêu đề/ })).toHaveValue('');
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'support-signed-in');

    // Its page: the message with the image, which the browser loaded from the API.
    await item.getByRole('link').click();
    await expect(page).toHaveURL(/\/support\/tickets\/[\w-]+$/);
    const ticketId = new URL(page.url()).pathname.split('/').pop()!;
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(page.getByText(WAITING)).toBeVisible();
    await expect(conversation(page)).toHaveCount(1);
    const image = conversation(page).first().getByRole('img', { name: 'Ảnh đính kèm' });
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('src', /^\/api\/support\/attachments\/[\w-]+$/);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);

    // A text file named .png: the server judges by the bytes.
    await page.getByRole('textbox', { name: /^Trả lời/ }).fill('Thêm một ảnh nữa.');
    await page.getByLabel(/^Ảnh đính kèm/).setInputFiles({
      name: 'ghi-chu.png',
      mimeType: 'image/png',
      buffer: Buffer.from('Đây là một tệp văn bản, không phải ảnh.\n'),
    });
    await page.getByRole('button', { name: 'Gửi trả lời' }).click();
    await expect(page.getByText(NOT_AN_IMAGE)).toBeVisible();
    await expect(conversation(page)).toHaveCount(1);

    // Support replies; the player reloads and reads it.
    await supportReplies(baseURL!, ticketId, 'Chào bạn, chúng tôi đã kiểm tra: 200,000 VND đã được cộng vào tài khoản.');
    await page.reload();
    await expect(conversation(page)).toHaveCount(2);
    const reply = conversation(page).nth(1);
    await expect(reply).toContainText('Bộ phận hỗ trợ');
    // By its role only: a player never learns the member's username.
    await expect(page.locator('body')).not.toContainText(STAFF.username);
    await expect(reply).toContainText('200,000 VND đã được cộng vào tài khoản.');
    await expect(page.getByText(ANSWERED)).toBeVisible();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'support-ticket');

    // The player answers: the ticket waits for support again.
    await page.getByRole('textbox', { name: /^Trả lời/ }).fill('Tôi đã nhận được, cảm ơn bộ phận hỗ trợ!');
    await page.getByRole('button', { name: 'Gửi trả lời' }).click();
    await expect(conversation(page)).toHaveCount(3);
    await expect(conversation(page).nth(2)).toContainText('Tôi đã nhận được, cảm ơn bộ phận hỗ trợ!');
    await expect(page.getByText(WAITING)).toBeVisible();
    await page.getByRole('link', { name: 'Yêu cầu của tôi' }).click();
    await expect(myTickets(page).getByRole('listitem').filter({ hasText: subject })).toContainText(WAITING);

    // A visitor still sees the spec's page only.
    const visitor = await newDevice();
    await visitor.setViewportSize(viewport);
    await visitor.goto('/support');
    await expect(visitor.getByText(SPEC_TEXT)).toBeVisible();
    await expect(visitor.getByRole('link', { name: 'Nhắn tin qua Messenger' })).toBeVisible();
    await expect(visitor.getByRole('heading', { name: 'Tạo yêu cầu hỗ trợ' })).toHaveCount(0);
    await expect(visitor.getByRole('heading', { name: 'Yêu cầu của tôi' })).toHaveCount(0);
    await expectNoSidewaysScroll(visitor, viewport.width);
    await screenshotAtWidth(visitor, 'support-anonymous');
    // Nor can a visitor open the ticket: it asks them to sign in first.
    await visitor.goto(`/support/tickets/${ticketId}`);
    await expect(visitor).toHaveURL(/\/login\?next_uri=/);
  });
}
