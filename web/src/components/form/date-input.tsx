import { useRef, useState, type ClipboardEvent, type FocusEvent, type KeyboardEvent } from 'react';
import { HStack } from 'styled-system/jsx';

import { Input } from '@/components/ui/input';
import { Text } from '@/components/ui/text';
import {
  DAY_DIGITS,
  MONTH_DIGITS,
  YEAR_DIGITS,
  datePartStatus,
  defaultDateBounds,
  isoToParts,
  normalizePart,
  partsToIso,
  type DatePart,
  type DateParts,
} from '@/lib/date';
import { m } from '@/paraglide/messages';

const ORDER: DatePart[] = ['day', 'month', 'year'];
const DIGITS: Record<DatePart, number> = { day: DAY_DIGITS, month: MONTH_DIGITS, year: YEAR_DIGITS };
const PART_TEXT = {
  day: { label: m['form.dateInput.day'], placeholder: m['form.dateInput.dayPlaceholder'] },
  month: { label: m['form.dateInput.month'], placeholder: m['form.dateInput.monthPlaceholder'] },
  year: { label: m['form.dateInput.year'], placeholder: m['form.dateInput.yearPlaceholder'] },
} satisfies Record<DatePart, { label: () => string; placeholder: () => string }>;

export type DateInputProps = {
  /** The initial date, "YYYY-MM-DD". Later changes of it are ignored. */
  defaultValue?: string | null;
  /** Called with "YYYY-MM-DD" once all parts form a valid date, and with null when they stop to. */
  onChange?: (value: string | null) => void;
  /** Called when focus leaves the whole input. */
  onBlur?: () => void;
  /** Earliest accepted date; 100 years ago by default. */
  min?: Date;
  /** Latest accepted date; today by default. */
  max?: Date;
  /** Flags every part, e.g. for a form-level error about the whole date. */
  invalid?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  /** The id of the day part, for a label's `htmlFor`. */
  id?: string;
  name?: string;
  'aria-describedby'?: string;
};

/**
 * A date typed as day / month / year (spec section 5, "Date input"). Each part takes digits
 * only and is capped (day 31, month 12, year 4 digits); parts that cannot form a date within
 * [min, max] show an error state once complete or left; the value exists only for a valid,
 * complete date. Day and month move on to the next part after 2 digits, and Backspace in an
 * empty month or year goes back. Enter is the form's: like every field, each part moves on to the
 * next field with it (lib/enter-to-next-field.ts), and the year, when last, submits.
 */
export function DateInput({
  defaultValue,
  onChange,
  onBlur,
  min,
  max,
  invalid = false,
  disabled,
  autoFocus,
  id,
  name,
  'aria-describedby': describedBy,
}: DateInputProps) {
  const [parts, setParts] = useState<DateParts>(() => isoToParts(defaultValue));
  const [left, setLeft] = useState<Set<DatePart>>(() => new Set());
  const [defaults] = useState(() => defaultDateBounds());
  const bounds = { min: min ?? defaults.min, max: max ?? defaults.max };
  const reported = useRef<string | null>(partsToIso(parts, bounds));
  const refs = {
    day: useRef<HTMLInputElement>(null),
    month: useRef<HTMLInputElement>(null),
    year: useRef<HTMLInputElement>(null),
  };
  const status = datePartStatus(parts, bounds);

  const focusPart = (part: DatePart | undefined) => {
    const input = part && refs[part].current;
    if (!input) return;
    input.focus();
    input.select();
  };
  const nextPart = (part: DatePart) => ORDER[ORDER.indexOf(part) + 1];
  const previousPart = (part: DatePart) => ORDER[ORDER.indexOf(part) - 1];

  const update = (next: DateParts) => {
    setParts(next);
    const value = partsToIso(next, bounds);
    if (value !== reported.current) {
      reported.current = value;
      onChange?.(value);
    }
  };

  const change = (part: DatePart, raw: string) => {
    const value = normalizePart[part](raw);
    const grew = value.length > parts[part].length;
    update({ ...parts, [part]: value });
    if (grew && value.length === DIGITS[part] && part !== 'year') focusPart(nextPart(part));
  };

  const keyDown = (part: DatePart) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && parts[part] === '' && part !== 'day') {
      event.preventDefault();
      focusPart(previousPart(part));
      return;
    }
    // Of the keys that type a character, only digits get through.
    const typesCharacter = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (typesCharacter && !/^\d$/.test(event.key)) event.preventDefault();
  };

  // "15/03/1990" pasted anywhere fills all three parts.
  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    const match = /^\s*(\d{1,2})\D(\d{1,2})\D(\d{4})\s*$/.exec(event.clipboardData.getData('text'));
    if (!match) return;
    event.preventDefault();
    update({
      day: normalizePart.day(match[1] ?? ''),
      month: normalizePart.month(match[2] ?? ''),
      year: normalizePart.year(match[3] ?? ''),
    });
    focusPart('year');
  };

  const blur = (part: DatePart) => (event: FocusEvent<HTMLInputElement>) => {
    if (!left.has(part)) setLeft(new Set(left).add(part));
    const stillInside = ORDER.some((other) => refs[other].current === event.relatedTarget);
    if (!stillInside) onBlur?.();
  };

  const showsError = (part: DatePart) =>
    invalid || (status[part] === 'invalid' && (parts[part].length === DIGITS[part] || left.has(part)));

  const separator = (
    <Text as="span" aria-hidden color="fg.muted">
      {m['form.dateInput.separator']()}
    </Text>
  );

  const partInput = (part: DatePart) => (
    <Input
      ref={refs[part]}
      id={part === 'day' ? id : undefined}
      name={name ? `${name}.${part}` : undefined}
      aria-label={PART_TEXT[part].label()}
      placeholder={PART_TEXT[part].placeholder()}
      aria-invalid={showsError(part) || undefined}
      aria-describedby={describedBy}
      data-part={part}
      inputMode="numeric"
      autoComplete="off"
      maxLength={DIGITS[part]}
      // The year takes four digits, day and month two.
      w={part === 'year' ? '24' : '16'}
      textAlign="center"
      value={parts[part]}
      disabled={disabled}
      autoFocus={part === 'day' && autoFocus}
      onChange={(event) => change(part, event.target.value)}
      onKeyDown={keyDown(part)}
      onPaste={paste}
      onBlur={blur(part)}
    />
  );

  return (
    <HStack gap="2" alignItems="center">
      {partInput('day')}
      {separator}
      {partInput('month')}
      {separator}
      {partInput('year')}
    </HStack>
  );
}
