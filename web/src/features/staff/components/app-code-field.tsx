import type { UseFormRegisterReturn } from 'react-hook-form';

import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { m } from '@/paraglide/messages';

type AppCodeFieldProps = {
  label: string;
  /** The form's `register('code')`. */
  registration: UseFormRegisterReturn;
  /** The field's message, already translated; the hint on where to find the code otherwise. */
  error: string | undefined;
};

/**
 * The six digits of the member's authenticator app, as the console's sign-in and enrolment
 * take them: a numeric keyboard, the phone's one-time-code autofill, room for spaces typed in.
 */
export function AppCodeField({ label, registration, error }: AppCodeFieldProps) {
  return (
    <Field.Root required invalid={!!error}>
      <Field.Label>
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <Input
        {...registration}

        inputMode="numeric"
        autoComplete="one-time-code"
        autoCorrect="off"
        spellCheck={false}
        fontFamily="mono"
        letterSpacing="widest"
        maxLength={12}
      />
      {error ? (
        <Field.ErrorText>{error}</Field.ErrorText>
      ) : (
        <Field.HelperText>{m['staff.signIn.codeHelp']()}</Field.HelperText>
      )}
    </Field.Root>
  );
}
