import type { UseFormRegisterReturn } from 'react-hook-form';

import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';

type CurrentPasswordFieldProps = {
  /** The signed-in account, so that password managers offer that account's password. */
  username: string;
  label: string;
  /** The field's message: a refusal, or "too many tries" while throttled. */
  error?: string;
  registration: UseFormRegisterReturn;
  autoFocus?: boolean;
};

/**
 * The account's current password, asked again before a change a stolen session must not make
 * alone (a passkey, two-factor on or off), with the account's username beside it, hidden.
 */
export function CurrentPasswordField({ username, label, error, registration, autoFocus }: CurrentPasswordFieldProps) {
  return (
    <>
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <Field.Root required invalid={!!error}>
        <Field.Label>
          {label}
          <Field.RequiredIndicator />
        </Field.Label>
        <PasswordInput {...registration} autoComplete="current-password" autoFocus={autoFocus} />
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
    </>
  );
}
