import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Stack } from 'styled-system/jsx';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useThrottleLock } from '@/hooks/use-throttle-lock';
import { toApiError } from '@/lib/api-client';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';
import { throttleLockOf } from '@/lib/throttle-lock';
import { m } from '@/paraglide/messages';

import { SIGN_IN_EXPIRED, useLoginTwoFactor } from '../api/login-two-factor';

type TwoFactorLoginInput = { code: string };

const FIELDS = ['code'] as const;

/**
 * The second step of a sign-in with two-factor on: the code from the authenticator app or a
 * recovery code, then 'Xác nhận' (or Enter). A refused code is said under the field; after too
 * many (429) the field says for how many minutes and 'Xác nhận' waits until then. Once the
 * sign-in waiting for the code has expired, 'Đăng nhập lại' leads back to the password step, as
 * 'Quay lại' always does. A code accepted signs in as the password step does without two-factor.
 */
export function TwoFactorLoginForm({ onBack }: { onBack: () => void }) {
  const verify = useLoginTwoFactor();
  const [lock, setLock] = useThrottleLock();
  const [expired, setExpired] = useState(false);
  const {
    control,
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<TwoFactorLoginInput>({ defaultValues: { code: '' } });
  const code = useWatch({ control, name: 'code' });

  const onSubmit = handleSubmit((input) => {
    if (lock || expired) return;
    verify.mutate(input.code, {
      onError: (error) => {
        const newLock = throttleLockOf(error);
        if (newLock) {
          setLock(newLock);
          setFocus('code');
          return;
        }
        if (toApiError(error).fieldError('code') === SIGN_IN_EXPIRED) setExpired(true);
        placeServerErrors(error, FIELDS, setError);
      },
    });
  });

  const codeError = lock
    ? m['auth.twoFactor.tooManyAttempts']({ minutes: lock.minutes })
    : errors.code?.type === 'server'
      ? errors.code.message
      : errors.code && m['auth.twoFactor.validation.codeRequired']();
  // A 429 is said under the field; anything else the field does not show, above it.
  const failure = verify.error && toApiError(verify.error).status !== 429 ? failureText(verify.error, FIELDS) : null;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="5">
        {failure && (
          <Alert.Root status="error" borderRadius="lg" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{m['auth.twoFactor.failed']()}</Alert.Title>
              <Alert.Description>{failure}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}

        <Field.Root required invalid={!!codeError}>
          <Field.Label>
            {m['auth.twoFactor.code']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            {...register('code', { validate: (value) => value.trim() !== '' })}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            fontFamily="mono"
            letterSpacing="wider"
            readOnly={expired}
            autoFocus
          />
          <Field.ErrorText>{codeError}</Field.ErrorText>
        </Field.Root>

        {expired ? (
          <Button type="button" size="lg" onClick={onBack}>
            {m['auth.twoFactor.signInAgain']()}
          </Button>
        ) : (
          <Button type="submit" size="lg" disabled={!code.trim() || !!lock} loading={verify.isPending}>
            {m['auth.twoFactor.submit']()}
          </Button>
        )}
        <Button type="button" variant="ghost" alignSelf="center" onClick={onBack}>
          <ArrowLeft aria-hidden />
          {m['auth.twoFactor.back']()}
        </Button>
      </Stack>
    </form>
  );
}
