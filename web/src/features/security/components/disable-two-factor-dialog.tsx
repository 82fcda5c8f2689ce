import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';

import { CurrentPasswordField } from '@/components/form/current-password-field';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Text } from '@/components/ui/text';
import { useThrottleLock } from '@/hooks/use-throttle-lock';
import { toApiError } from '@/lib/api-client';
import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';
import { throttleLockOf } from '@/lib/throttle-lock';

import {
  disableTwoFactorInputSchema,
  useDisableTwoFactor,
  type DisableTwoFactorField,
  type DisableTwoFactorInput,
} from '../api/disable-two-factor';
import { FormDialog } from '@/components/ui/form-dialog';
import { m } from '@/paraglide/messages';

const FIELDS: readonly DisableTwoFactorField[] = ['password', 'code'];

type DisableTwoFactorDialogProps = {
  username: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called once two-factor is off and /me says so. */
  onDisabled: () => void;
};

/**
 * Turning two-factor off: the current password and a code, from the app or a recovery code.
 * The server's refusals (a wrong password, a wrong or used code) go beside their field; after
 * too many wrong ones (429) the banner says for how many minutes and the button waits until
 * then. Mount it afresh (a new `key`) for each opening.
 */
export function DisableTwoFactorDialog({ username, open, onOpenChange, onDisabled }: DisableTwoFactorDialogProps) {
  const disable = useDisableTwoFactor();
  const [lock, setLock] = useThrottleLock();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DisableTwoFactorInput>({
    mode: 'onTouched',
    resolver: zodResolver(disableTwoFactorInputSchema),
    defaultValues: { password: '', code: '' },
  });
  const values = useWatch({ control }) as DisableTwoFactorInput;
  const valid = disableTwoFactorInputSchema.safeParse(values).success;

  const onSubmit = handleSubmit((input) => {
    if (lock) return;
    disable.mutate(input, {
      onSuccess: onDisabled,
      onError: (error) => {
        const newLock = throttleLockOf(error);
        if (newLock) setLock(newLock);
        else placeServerErrors(error, FIELDS, setError);
      },
    });
  });

  const failure = lock
    ? m['security.twoFactor.tooManyGuesses']({ minutes: lock.minutes })
    : disable.error && toApiError(disable.error).status !== 429
      ? failureText(disable.error, FIELDS)
      : null;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={m['security.twoFactor.disableDialog.title']()}
      onSubmit={(event) => void onSubmit(event)}
      canSave={valid && !lock && !disable.isPending}
      pending={disable.isPending}
      failure={failure ? { title: m['security.twoFactor.disableDialog.failed'](), text: failure } : null}
      saveLabel={m['security.twoFactor.disableDialog.submit']()}
    >
      <Text fontSize="sm" color="fg.muted">
        {m['security.twoFactor.disableDialog.description']()}
      </Text>
      <CurrentPasswordField
        username={username}
        label={m['security.twoFactor.disableDialog.password']()}
        error={errors.password?.message}
        registration={register('password')}
      />
      <Field.Root required invalid={!!errors.code}>
        <Field.Label>
          {m['security.twoFactor.code']()}
          <Field.RequiredIndicator />
        </Field.Label>
        <Input
          {...register('code')}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          fontFamily="mono"
        />
        <Field.ErrorText>{errors.code?.message}</Field.ErrorText>
        <Field.HelperText>{m['security.twoFactor.disableDialog.codeHelp']()}</Field.HelperText>
      </Field.Root>
    </FormDialog>
  );
}
