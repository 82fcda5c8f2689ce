import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';

import { DateTextInput } from '@/components/form/date-text-input';
import { UiProvider } from '@/components/ui/provider';

function Controlled({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return <DateTextInput aria-label="date" placeholder="Ngày hẹn" value={value} onChange={(e) => setValue(e.target.value)} />;
}

const renderIn = (ui: ReactNode) => render(<UiProvider>{ui}</UiProvider>);

describe('DateTextInput', () => {
  it('is a text field until focused, then a date field; empty again, text again', async () => {
    const events = userEvent.setup();
    renderIn(
      <>
        <DateTextInput aria-label="date" placeholder="Ngày hẹn" />
        <button type="button">elsewhere</button>
      </>,
    );
    const input = screen.getByLabelText('date');
    expect(input).toHaveAttribute('type', 'text');
    expect(input).toHaveAttribute('placeholder', 'Ngày hẹn');

    await events.click(input);
    expect(input).toHaveAttribute('type', 'date');
    await events.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(input).toHaveAttribute('type', 'text');
  });

  it('stays a date field once filled, also unfocused', async () => {
    const events = userEvent.setup();
    renderIn(
      <>
        <DateTextInput aria-label="date" />
        <button type="button">elsewhere</button>
      </>,
    );
    const input = screen.getByLabelText('date');
    await events.click(input);
    await events.type(input, '2026-03-15');
    await events.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(input).toHaveAttribute('type', 'date');
    expect(input).toHaveValue('2026-03-15');
  });

  it('shows a given value as a date from the start', () => {
    renderIn(<Controlled initial="2026-03-15" />);
    expect(screen.getByLabelText('date')).toHaveAttribute('type', 'date');
  });

  it('starts as text with a default value that is empty, as a date with one that is not', () => {
    renderIn(
      <>
        <DateTextInput aria-label="empty" defaultValue="" />
        <DateTextInput aria-label="filled" defaultValue="2026-03-15" />
      </>,
    );
    expect(screen.getByLabelText('empty')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('filled')).toHaveAttribute('type', 'date');
  });
});
