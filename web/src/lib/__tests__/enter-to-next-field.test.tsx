import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { enterToNextField } from '@/lib/enter-to-next-field';

function renderForm() {
  const onSubmit = vi.fn((event: FormEvent) => event.preventDefault());
  render(
    <form onSubmit={onSubmit} onKeyDown={enterToNextField}>
      <input aria-label="username" />
      <input type="text" name="hidden-username" readOnly hidden />
      <input aria-label="disabled" disabled />
      <input aria-label="password" type="password" />
      <input aria-label="remember" type="checkbox" />
      <select aria-label="server">
        <option value="1">1</option>
      </select>
      <button type="button">show</button>
      <input aria-label="nickname" defaultValue="old nickname" />
      <button type="submit">send</button>
    </form>,
  );
  return { onSubmit, events: userEvent.setup() };
}

describe('enterToNextField', () => {
  it('moves to the next field the player can type into, skipping what they cannot', async () => {
    const { events, onSubmit } = renderForm();
    await events.click(screen.getByLabelText('username'));
    await events.keyboard('{Enter}');
    expect(screen.getByLabelText('password')).toHaveFocus();
    await events.keyboard('{Enter}');
    expect(screen.getByLabelText('server')).toHaveFocus();
    await events.keyboard('{Enter}');
    const nickname = screen.getByLabelText<HTMLInputElement>('nickname');
    expect(nickname).toHaveFocus();
    // Its text is selected, as Tab would: typing replaces it.
    expect([nickname.selectionStart, nickname.selectionEnd]).toEqual([0, 12]);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('leaves Enter in the last field to the browser, which submits the form', async () => {
    const { events, onSubmit } = renderForm();
    await events.click(screen.getByLabelText('nickname'));
    await events.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('leaves Enter alone with a modifier, while composing, or when the field handled it', () => {
    renderForm();
    const username = screen.getByLabelText('username');
    expect(fireKey(username, { shiftKey: true })).toBe(true);
    expect(fireKey(username, { isComposing: true })).toBe(true);
    username.addEventListener('keydown', (event) => event.preventDefault(), { once: true });
    fireKey(username);
    expect(username).not.toHaveFocus();
    expect(screen.getByLabelText('password')).not.toHaveFocus();
    expect(fireKey(username)).toBe(false);
    expect(screen.getByLabelText('password')).toHaveFocus();
  });

  it('leaves Enter on a checkbox alone', () => {
    renderForm();
    expect(fireKey(screen.getByLabelText('remember'))).toBe(true);
  });
});

/** Dispatches Enter on `element`; false when a handler prevented its default. */
function fireKey(element: HTMLElement, init: KeyboardEventInit = {}) {
  return element.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, ...init }));
}
