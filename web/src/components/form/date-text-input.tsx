import { useState, type FocusEvent, type Ref } from 'react';

import { Input, type InputProps } from '@/components/ui/input';

type DateTextInputProps = Omit<InputProps, 'type'> & { ref?: Ref<HTMLInputElement> };

const hasValue = (value: InputProps['value']) =>
  value !== undefined && value !== null && String(value) !== '';

/**
 * A text field for a date (spec section 5: "a date-type text field shows as text until focused
 * or filled"): empty and unfocused it is a text input, so its placeholder shows instead of the
 * browser's dd/mm/yyyy mask; focused or filled it is a date input with the browser's picker.
 * Works controlled (`value`) and with react-hook-form's `register` (uncontrolled).
 */
export function DateTextInput({ ref, value, defaultValue, onFocus, onBlur, onChange, ...props }: DateTextInputProps) {
  const [focused, setFocused] = useState(false);
  const [typed, setTyped] = useState(() => hasValue(defaultValue));
  const filled = value !== undefined ? hasValue(value) : typed;

  return (
    <Input
      ref={ref}
      {...props}
      value={value}
      defaultValue={defaultValue}
      type={focused || filled ? 'date' : 'text'}
      onFocus={(event: FocusEvent<HTMLInputElement>) => {
        setFocused(true);
        onFocus?.(event);
      }}
      onBlur={(event: FocusEvent<HTMLInputElement>) => {
        setFocused(false);
        setTyped(event.currentTarget.value !== '');
        onBlur?.(event);
      }}
      onChange={(event) => {
        setTyped(event.currentTarget.value !== '');
        onChange?.(event);
      }}
    />
  );
}
