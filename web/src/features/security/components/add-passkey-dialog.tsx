import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';

import { CurrentPasswordField } from '@/components/form/current-password-field';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Text } from '@/components/ui/text';
import { useThrottleLock } from '@/hooks/use-throttle-lock';
import { ApiError } from '@/lib/api-client';
import { failureText } from '@/lib/failure-text';
import { isPasskeyPromptDismissed } from '@/lib/passkeys';
import { placeServerErrors } from '@/lib/server-errors';
import { throttleLockOf } from '@/lib/throttle-lock';
import { m } from '@/paraglide/messages';
import type { Passkey } from '@/types/api-schema';

import { addPasskeyInputSchema, useAddPasskey, type AddPasskeyField, type AddPasskeyInput } from '../api/add-passkey';
import { FormDialog } from '@/components/ui/form-dialog';

const FIELDS: readonly AddPasskeyField[] = ['password', 'name'];

type AddPasskeyDialogProps = {
  username: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called once the passkey is kept and the list shows it. */
  onAdded: (passkey: Passkey) => void;
};

/**
 * Adding a passkey: the current password and an optional name, then 'Tiếp tục' hands over to
 * the browser, which asks for the fingerprint, face or PIN of the device. A wrong password is
 * said under it (after too many, for how many minutes, and 'Tiếp tục' waits until then), a name
 * too long under the name. What no field can say (the account has 10 passkeys, the passkey was
 * not kept, the browser failed) shows above the fields; a prompt the player closed is said
 * calmly there too, and 'Tiếp tục' tries again. Mount it afresh (a new `key`) for each opening.
 */
export function AddPasskeyDialog({ username, open, onOpenChange, onAdded }: AddPasskeyDialogProps) {
  const add = useAddPasskey();
  const [lock, setLock] = useThrottleLock();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AddPasskeyInput>({
    mode: 'onTouched',
    resolver: zodResolver(addPasskeyInputSchema),
    defaultValues: { password: '', name: '' },
  });
  const values = useWatch({ control }) as AddPasskeyInput;
  const valid = addPasskeyInputSchema.safeParse(values).success;

  const onSubmit = handleSubmit((input) => {
    if (lock) return;
    add.mutate(input, {
      onSuccess: onAdded,
      onError: (error) => {
        const newLock = throttleLockOf(error);
        if (newLock) setLock(newLock);
        else placeServerErrors(error, FIELDS, setError);
      },
    });
  });

  const passwordError = lock
    ? m['security.passkeys.tooManyGuesses']({ minutes: lock.minutes })
    : errors.password?.message;

  const error = add.error;
  const cancelled = isPasskeyPromptDismissed(error);
  // The server's refusals that no field shows, or what the browser could not do.
  const failure = (() => {
    if (!error || cancelled || lock) return null;
    if (error instanceof ApiError) return failureText(error, FIELDS);
    if (error.name === 'InvalidStateError') return m['security.passkeys.addDialog.alreadyOnDevice']();
    return m['security.passkeys.addDialog.browserFailed']();
  })();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={m['security.passkeys.addDialog.title']()}
      onSubmit={(event) => void onSubmit(event)}
      canSave={valid && !lock && !add.isPending}
      pending={add.isPending}
      failure={failure ? { title: m['security.passkeys.addDialog.failed'](), text: failure } : null}
      saveLabel={m['security.passkeys.addDialog.submit']()}
    >
      {cancelled && (
        <Alert.Root status="info" borderRadius="lg" role="status">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Description>{m['security.passkeys.addDialog.cancelled']()}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <Text fontSize="sm" color="fg.muted">
        {m['security.passkeys.addDialog.description']()}
      </Text>
      <CurrentPasswordField
        username={username}
        label={m['security.passkeys.addDialog.password']()}
        error={passwordError}
        registration={register('password')}
        autoFocus
      />
      <Field.Root invalid={!!errors.name}>
        <Field.Label>{m['security.passkeys.addDialog.name']()}</Field.Label>
        <Input {...register('name')} autoComplete="off" />
        {errors.name ? (
          <Field.ErrorText>{errors.name?.message}</Field.ErrorText>
        ) : (
          <Field.HelperText>{m['security.passkeys.addDialog.nameHelp']()}</Field.HelperText>
        )}
      </Field.Root>
    </FormDialog>
  );
}
