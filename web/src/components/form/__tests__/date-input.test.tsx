import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { DateInput, type DateInputProps } from '@/components/form/date-input';
import { UiProvider } from '@/components/ui/provider';
import { enterToNextField } from '@/lib/enter-to-next-field';

const min = new Date(1925, 5, 15);
const max = new Date(2025, 5, 15);

function renderDateInput(props: Partial<DateInputProps> = {}) {
  const onChange = vi.fn();
  const onBlur = vi.fn();
  const events = userEvent.setup();
  // In a form, as always: Enter is the form's (lib/enter-to-next-field.ts).
  render(
    <UiProvider>
      <form onKeyDown={enterToNextField}>
        <DateInput min={min} max={max} onChange={onChange} onBlur={onBlur} {...props} />
        <button type="button">elsewhere</button>
      </form>
    </UiProvider>,
  );
  return {
    events,
    onChange,
    onBlur,
    day: screen.getByRole('textbox', { name: 'Ngày' }),
    month: screen.getByRole('textbox', { name: 'Tháng' }),
    year: screen.getByRole('textbox', { name: 'Năm' }),
  };
}

const lastValue = (onChange: ReturnType<typeof vi.fn>) => onChange.mock.calls.at(-1)?.[0] as unknown;

describe('DateInput', () => {
  it('moves from day to month to year after two digits and yields the date', async () => {
    const { events, onChange, day, month, year } = renderDateInput();
    await events.click(day);
    await events.keyboard('05');
    expect(month).toHaveFocus();
    await events.keyboard('03');
    expect(year).toHaveFocus();
    await events.keyboard('1990');

    expect(day).toHaveValue('05');
    expect(month).toHaveValue('03');
    expect(year).toHaveValue('1990');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('1990-03-05');
  });

  it('stays on a one-digit day until told to move on; Enter moves on', async () => {
    const { events, onChange, day, month, year } = renderDateInput();
    await events.type(day, '5');
    expect(day).toHaveFocus();
    await events.keyboard('{Enter}');
    expect(month).toHaveFocus();
    await events.keyboard('3{Enter}');
    expect(year).toHaveFocus();
    await events.keyboard('2000');
    expect(lastValue(onChange)).toBe('2000-03-05');
  });

  it('caps the day at 31 and the month at 12', async () => {
    const { events, day, month } = renderDateInput();
    await events.type(day, '45');
    expect(day).toHaveValue('31');
    expect(month).toHaveFocus();
    await events.keyboard('19');
    expect(month).toHaveValue('12');
  });

  it('takes digits only', async () => {
    const { events, day, month, year } = renderDateInput();
    await events.type(day, 'a-/ 1');
    expect(day).toHaveValue('1');
    await events.type(month, 'x');
    expect(month).toHaveValue('');
    await events.type(year, '20ab24!');
    expect(year).toHaveValue('2024');
    expect(year).toHaveAttribute('maxlength', '4');
    expect(year).toHaveAttribute('inputmode', 'numeric');

    // fireEvent answers false when the handler prevented the key's default action.
    expect(fireEvent.keyDown(day, { key: 'a' })).toBe(false);
    expect(fireEvent.keyDown(day, { key: '.' })).toBe(false);
    expect(fireEvent.keyDown(day, { key: '7' })).toBe(true);
    expect(fireEvent.keyDown(day, { key: 'Tab' })).toBe(true);
    expect(fireEvent.keyDown(year, { key: 'Enter' })).toBe(true);
    expect(fireEvent.keyDown(day, { key: 'v', ctrlKey: true })).toBe(true);
  });

  it('goes back with Backspace from an empty year or month', async () => {
    const { events, day, month, year } = renderDateInput();
    await events.type(day, '12');
    await events.keyboard('1');
    expect(month).toHaveFocus();
    await events.click(year);
    await events.keyboard('{Backspace}');
    expect(month).toHaveFocus();
    await events.keyboard('{Backspace}');
    expect(month).toHaveValue('');
    expect(month).toHaveFocus();
    await events.keyboard('{Backspace}');
    expect(day).toHaveFocus();
    expect(day).toHaveValue('12');
  });

  it('checks the day against the month, leap years included', async () => {
    const { events, onChange, day, month, year } = renderDateInput();
    await events.type(day, '3102');
    expect(day).toHaveAttribute('aria-invalid', 'true');
    expect(month).not.toHaveAttribute('aria-invalid');

    await events.clear(day);
    await events.type(day, '29022023');
    expect(day).toHaveAttribute('aria-invalid', 'true');
    expect(year).not.toHaveAttribute('aria-invalid');
    expect(onChange).not.toHaveBeenCalled();

    await events.clear(year);
    await events.type(year, '2024');
    expect(day).not.toHaveAttribute('aria-invalid');
    expect(lastValue(onChange)).toBe('2024-02-29');
  });

  it('keeps the year within the bounds and checks month and day in the boundary year', async () => {
    const { events, onChange, day, month, year } = renderDateInput();
    await events.type(day, '01012026');
    expect(year).toHaveAttribute('aria-invalid', 'true');

    await events.clear(year);
    await events.type(year, '1924');
    expect(year).toHaveAttribute('aria-invalid', 'true');

    await events.clear(year);
    await events.type(year, '2025');
    expect(year).not.toHaveAttribute('aria-invalid');
    expect(lastValue(onChange)).toBe('2025-01-01');

    await events.clear(month);
    await events.type(month, '07');
    expect(month).toHaveAttribute('aria-invalid', 'true');
    expect(lastValue(onChange)).toBeNull();

    await events.clear(month);
    await events.type(month, '06');
    await events.clear(day);
    await events.type(day, '16');
    expect(day).toHaveAttribute('aria-invalid', 'true');
    expect(month).not.toHaveAttribute('aria-invalid');

    await events.clear(day);
    await events.type(day, '15');
    expect(day).not.toHaveAttribute('aria-invalid');
    expect(lastValue(onChange)).toBe('2025-06-15');
  });

  it('defaults to the range from 100 years ago to today', async () => {
    const thisYear = new Date().getFullYear();
    const { events, year, day, month } = renderDateInput({ min: undefined, max: undefined });
    await events.type(day, '0101');
    await events.type(year, String(thisYear + 1));
    expect(year).toHaveAttribute('aria-invalid', 'true');
    await events.clear(year);
    await events.type(year, String(thisYear - 101));
    expect(year).toHaveAttribute('aria-invalid', 'true');
    await events.clear(year);
    await events.type(year, String(thisYear - 30));
    expect(year).not.toHaveAttribute('aria-invalid');
    expect(month).not.toHaveAttribute('aria-invalid');
  });

  it('has no value while incomplete, and flags an unfinished part once left', async () => {
    const { events, onChange, onBlur, day, year } = renderDateInput();
    await events.type(day, '0503199');
    expect(onChange).not.toHaveBeenCalled();
    expect(year).not.toHaveAttribute('aria-invalid');

    await events.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(year).toHaveAttribute('aria-invalid', 'true');
    expect(onBlur).toHaveBeenCalledTimes(1);
  });

  it('reports null when a complete date stops being valid', async () => {
    const { events, onChange, day } = renderDateInput({ defaultValue: '2000-03-05' });
    expect(day).toHaveValue('05');
    await events.clear(day);
    expect(lastValue(onChange)).toBeNull();
    await events.type(day, '7');
    expect(lastValue(onChange)).toBe('2000-03-07');
  });

  it('tells the form only when focus leaves the whole input', async () => {
    const { events, onBlur, day, month } = renderDateInput();
    await events.click(day);
    await events.click(month);
    expect(onBlur).not.toHaveBeenCalled();
    await events.click(screen.getByRole('button', { name: 'elsewhere' }));
    await waitFor(() => expect(onBlur).toHaveBeenCalledTimes(1));
  });

  it('fills all parts from a pasted date', async () => {
    const { events, onChange, day, month, year } = renderDateInput();
    await events.click(day);
    await events.paste('15/03/1990');
    expect([day, month, year].map((input) => (input as HTMLInputElement).value)).toEqual(['15', '03', '1990']);
    expect(lastValue(onChange)).toBe('1990-03-15');
  });

  it('flags every part when the form says the date is wrong', () => {
    const { day, month, year } = renderDateInput({ defaultValue: '2020-01-01', invalid: true });
    for (const input of [day, month, year]) expect(input).toHaveAttribute('aria-invalid', 'true');
  });
});
