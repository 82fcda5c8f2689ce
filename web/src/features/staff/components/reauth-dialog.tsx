import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';

import { Field } from '@/components/ui/field';
import { FormDialog } from '@/components/ui/form-dialog';
import { PasswordInput } from '@/components/ui/password-input';
import { Text } from '@/components/ui/text';
import { useThrottleLock } from '@/hooks/use-throttle-lock';
import { toApiError } from '@/lib/api-client';
import { placeServerErrors } from '@/lib/server-errors';
import { throttleLockOf } from '@/lib/throttle-lock';
import { m } from '@/paraglide/messages';

import { reauthenticateSchema, useReauthenticate, type ReauthenticateInput } from '../api/reauthenticate';
import { staffFailureText } from '../utils/failure';
import { settleReauthentication, useReauthRequest } from '../utils/reauth-requests';

const FIELDS = ['secret'] as const;

/** The form, mounted afresh for each request. */
function ReauthForm({ message }: { message: string }) {
  const reauthenticate = useReauthenticate();
  const [lock, setLock] = useThrottleLock();
  const {
    control,
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<ReauthenticateInput>({
    mode: 'onTouched',
    resolver: zodResolver(reauthenticateSchema),
    defaultValues: { secret: '' },
  });
  const secret = useWatch({ control, name: 'secret' });

  const onSubmit = handleSubmit((input) => {
    if (lock) return;
    reauthenticate.mutate(input, {
      onSuccess: () => settleReauthentication(true),
      onError: (error) => {
        const newLock = throttleLockOf(error);
        if (newLock) {
          setLock(newLock);
          setFocus('secret');
          return;
        }
        placeServerErrors(error, FIELDS, setError);
      },
    });
  });

  const secretError = lock ? m['staff.reauth.tooManyAttempts']({ minutes: lock.minutes }) : errors.secret?.message;
  const error = reauthenticate.error;
  const failureMessage = error && toApiError(error).status !== 429 ? staffFailureText(error, FIELDS) : null;

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) settleReauthentication(false);
      }}
      title={m['staff.reauth.title']()}
      onSubmit={(event) => void onSubmit(event)}
      canSave={secret.trim() !== '' && !lock}
      pending={reauthenticate.isPending}
      failure={failureMessage ? { title: m['staff.reauth.failed'](), text: failureMessage } : null}
      saveLabel={m['staff.reauth.submit']()}
    >
      <Text>{message || m['staff.reauth.text']()}</Text>
      <Text fontSize="sm" color="fg.muted">
        {m['staff.reauth.hint']()}
      </Text>
      <Field.Root required invalid={!!secretError}>
        <Field.Label>
          {m['staff.reauth.secret']()}
          <Field.RequiredIndicator />
        </Field.Label>
        <PasswordInput {...register('secret')} autoComplete="current-password" autoFocus />
        <Field.ErrorText>{secretError}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

/**
 * 'Xác thực lại': asks for the password or an app code when a console call answered 403
 * `reauth_required` (see `staffApi`); once the server has taken it, the call is sent again.
 * Closing it gives the call up. Mounted once, in the console's layout.
 */
export function ReauthDialog() {
  const message = useReauthRequest();
  return message === null ? null : <ReauthForm message={message} />;
}
