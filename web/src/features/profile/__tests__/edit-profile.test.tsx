import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { buildUser } from '@/testing/data';
import { validationError } from '@/testing/mocks/common';
import { db } from '@/testing/mocks/db';
import { profileUpdates } from '@/testing/mocks/profile-handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

const PATCH = 'PATCH /api/me/update-profile';

/** The value a personal-info row shows, without its edit button (also behind an open modal). */
async function row(label: string) {
  const terms = await screen.findAllByRole('term', { hidden: true });
  const found = terms.find((element) => element.textContent === label);
  if (!found) throw new Error(`no row ${label}`);
  const value = found.nextElementSibling!.cloneNode(true) as HTMLElement;
  value.querySelectorAll('button').forEach((button) => button.remove());
  return value;
}

/** A text field of the modal by its label, without the required field's asterisk. */
const field = (dialog: HTMLElement, label: string) =>
  within(dialog).getByRole('textbox', { name: (name) => name.replace(/\s*\*$/, '') === label });

async function openDialog(events: ReturnType<typeof renderApp>['events'], field: string) {
  await events.click(await screen.findByRole('button', { name: `Thay đổi ${field}` }));
  return screen.findByRole('dialog');
}

const save = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Lưu' });

describe('phone number modal', () => {
  it('saves only the phone number, refreshes the user and says so', async () => {
    const { events } = renderApp('/', { user: buildUser({ phoneNumber: '0901234567' }) });
    const dialog = await openDialog(events, 'Số điện thoại');
    expect(within(dialog).getByRole('heading', { name: 'Thay đổi số điện thoại' })).toBeInTheDocument();
    const input = field(dialog, 'Số điện thoại');
    expect(input).toHaveValue('0901234567');
    // Unchanged: nothing to save.
    expect(save(dialog)).toBeDisabled();

    await events.clear(input);
    await events.type(input, '0912 345 678');
    expect(save(dialog)).toBeEnabled();
    await events.click(save(dialog));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Thay đổi số điện thoại thành công!')).toBeInTheDocument();
    expect(profileUpdates).toEqual([{ phoneNumber: '0912345678' }]);
    // The user was read again after the change.
    expect(db.requests.slice(db.requests.indexOf(PATCH))).toContain('GET /api/me');
    expect(await row('Số điện thoại')).toHaveTextContent('0912345678');
  });

  it('says what is wrong with the number and keeps save disabled', async () => {
    const { events } = renderApp('/', { user: buildUser({ phoneNumber: '0901234567' }) });
    const dialog = await openDialog(events, 'Số điện thoại');
    const input = field(dialog, 'Số điện thoại');

    await events.clear(input);
    await events.tab();
    expect(await within(dialog).findByText('Hãy nhập vào số điện thoại của bạn')).toBeInTheDocument();
    expect(save(dialog)).toBeDisabled();

    await events.type(input, '09-123');
    expect(await within(dialog).findByText('Số điện thoại không hợp lệ')).toBeInTheDocument();
    expect(save(dialog)).toBeDisabled();

    await events.clear(input);
    await events.type(input, '0901234567890123');
    expect(await within(dialog).findByText('Số điện thoại không hợp lệ')).toBeInTheDocument();
    expect(save(dialog)).toBeDisabled();
    expect(db.requests).not.toContain(PATCH);
  });

  it("puts the server's 422 message beside the field and keeps the modal open", async () => {
    server.use(
      http.patch('/api/me/update-profile', () =>
        validationError({ phoneNumber: ['Số điện thoại này đã được dùng cho tài khoản khác.'] }),
      ),
    );
    const { events } = renderApp('/', { user: buildUser({ phoneNumber: '' }) });
    const dialog = await openDialog(events, 'Số điện thoại');
    await events.type(field(dialog, 'Số điện thoại'), '0987654321');
    await events.click(save(dialog));

    expect(await within(dialog).findByText('Số điện thoại này đã được dùng cho tài khoản khác.')).toBeInTheDocument();
    expect(field(dialog, 'Số điện thoại')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Thay đổi số điện thoại thành công!')).not.toBeInTheDocument();
    expect(await row('Số điện thoại')).toHaveTextContent('Chưa cập nhật');
  });

  it('shows a refusal no field can hold in an error banner of the modal', async () => {
    server.use(http.patch('/api/me/update-profile', () => validationError({ user: ['Tài khoản đang bị khoá.'] })));
    const { events } = renderApp('/', { user: true });
    const dialog = await openDialog(events, 'Số điện thoại');
    const input = field(dialog, 'Số điện thoại');
    await events.clear(input);
    await events.type(input, '0987654321');
    await events.click(save(dialog));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Lưu thay đổi không thành công');
    expect(alert).toHaveTextContent('Tài khoản đang bị khoá.');
  });
});

describe('name modal', () => {
  it('sends the three parts trimmed and shows the new name', async () => {
    const { events } = renderApp('/', {
      user: buildUser({ lastName: 'Nguyễn', middleName: 'Văn', firstName: 'An' }),
    });
    const dialog = await openDialog(events, 'Họ và tên');
    const [last, middle, first] = ['Họ', 'Tên đệm', 'Tên'].map((label) => field(dialog, label));
    expect([last, middle, first].map((input) => (input as HTMLInputElement).value)).toEqual(['Nguyễn', 'Văn', 'An']);
    expect(first).toHaveAttribute('maxLength', '32');

    // Spaces around the same name are no change.
    await events.type(first!, ' ');
    expect(save(dialog)).toBeDisabled();

    await events.clear(last!);
    await events.type(last!, 'Trần');
    await events.clear(middle!);
    await events.type(middle!, ' Thị ');
    await events.clear(first!);
    await events.type(first!, 'Bình');
    await events.click(save(dialog));

    expect(await screen.findByText('Thay đổi tên thành công!')).toBeInTheDocument();
    expect(profileUpdates).toEqual([{ lastName: 'Trần', middleName: 'Thị', firstName: 'Bình' }]);
    expect(await row('Họ và tên')).toHaveTextContent(/^Trần Thị Bình$/);
  });

  it('sends the name, as the server takes it, only when a part of it changed', async () => {
    const { events } = renderApp('/', {
      user: buildUser({ lastName: 'Nguyễn', middleName: 'Văn', firstName: 'An' }),
    });
    const dialog = await openDialog(events, 'Họ và tên');
    // Edited back to the same value (spaces around it): not a change.
    await events.type(field(dialog, 'Họ'), ' ');
    expect(save(dialog)).toBeDisabled();
    await events.clear(field(dialog, 'Tên'));
    await events.type(field(dialog, 'Tên'), 'Bình');
    await events.click(save(dialog));

    expect(await screen.findByText('Thay đổi tên thành công!')).toBeInTheDocument();
    // The identity service takes the name only whole: its three parts go together.
    expect(profileUpdates).toEqual([{ lastName: 'Nguyễn', middleName: 'Văn', firstName: 'Bình' }]);
    expect(await row('Họ và tên')).toHaveTextContent(/^Nguyễn Văn Bình$/);
  });

  it('moves through the parts with Enter and saves from the last', async () => {
    const { events } = renderApp('/', {
      user: buildUser({ lastName: 'Nguyễn', middleName: 'Văn', firstName: 'An' }),
    });
    const dialog = await openDialog(events, 'Họ và tên');
    expect(field(dialog, 'Họ')).toHaveFocus();
    await events.keyboard('{Enter}');
    expect(field(dialog, 'Tên đệm')).toHaveFocus();
    // Focus selects the part's text, as Tab does: typing replaces it.
    await events.keyboard('Thị{Enter}');
    expect(field(dialog, 'Tên')).toHaveFocus();
    await events.keyboard('Bình{Enter}');

    expect(await screen.findByText('Thay đổi tên thành công!')).toBeInTheDocument();
    expect(profileUpdates).toEqual([{ lastName: 'Nguyễn', middleName: 'Thị', firstName: 'Bình' }]);
  });

  it('requires the given and the family name', async () => {
    const { events } = renderApp('/', { user: buildUser({ lastName: 'Nguyễn', firstName: 'An' }) });
    const dialog = await openDialog(events, 'Họ và tên');
    await events.clear(field(dialog, 'Họ'));
    await events.clear(field(dialog, 'Tên'));
    await events.tab();
    expect(await within(dialog).findByText('Hãy nhập họ của bạn')).toBeInTheDocument();
    expect(within(dialog).getByText('Hãy nhập tên của bạn')).toBeInTheDocument();
    expect(save(dialog)).toBeDisabled();
  });

  it('sends nothing when cancelled, and the next opening starts from the saved values', async () => {
    const { events } = renderApp('/', { user: buildUser({ lastName: 'Nguyễn', firstName: 'An' }) });
    let dialog = await openDialog(events, 'Họ và tên');
    await events.type(field(dialog, 'Họ'), 'xyz');
    await events.click(within(dialog).getByRole('button', { name: 'Hủy' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    dialog = await openDialog(events, 'Họ và tên');
    expect(field(dialog, 'Họ')).toHaveValue('Nguyễn');
    expect(db.requests).not.toContain(PATCH);
  });
});

describe('language modal', () => {
  it('offers the portal languages and cannot save the one already chosen', async () => {
    const { events } = renderApp('/', { user: buildUser({ language: 'vi-VN' }) });
    const dialog = await openDialog(events, 'Ngôn ngữ');
    const select = within(dialog).getByRole('combobox', { name: /Ngôn ngữ/ });
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Tiếng Việt']);
    expect(save(dialog)).toBeDisabled();
  });

  it('moves a player off a language no longer offered', async () => {
    const { events } = renderApp('/', { user: buildUser({ language: 'en-US' }) });
    expect(await row('Ngôn ngữ')).toHaveTextContent('en-US');
    const dialog = await openDialog(events, 'Ngôn ngữ');
    await events.click(save(dialog));
    expect(await screen.findByText('Thay đổi ngôn ngữ thành công!')).toBeInTheDocument();
    expect(profileUpdates).toEqual([{ language: 'vi-VN' }]);
    expect(await row('Ngôn ngữ')).toHaveTextContent(/^Tiếng Việt$/);
  });
});

it('clears the last success banner when another change starts', async () => {
  const { events } = renderApp('/', { user: buildUser({ language: 'en-US' }) });
  await events.click(save(await openDialog(events, 'Ngôn ngữ')));
  expect(await screen.findByText('Thay đổi ngôn ngữ thành công!')).toBeInTheDocument();
  await openDialog(events, 'Số điện thoại');
  expect(screen.queryByText('Thay đổi ngôn ngữ thành công!')).not.toBeInTheDocument();
});
