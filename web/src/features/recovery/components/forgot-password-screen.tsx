import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toApiError } from '@/lib/api-client';

import { forgotPasswordInputSchema, useSendResetEmail, type ForgotPasswordInput } from '../api/send-reset-email';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { useTypedDuringHydration } from '@/lib/hydration-typing';
import { failureText } from '@/lib/failure-text';
import { FailureAlert } from '@/components/feedback/failure-alert';
import { m } from '@/paraglide/messages';
import { RecoveryCard } from './recovery-card';
import { RequestSent } from './request-sent';

const FIELDS = ['username'] as const;

/**
 * The username whose account gets a reset link. Submit is enabled from 4 characters on and
 * sends a captcha token for forgotPasswordFormSubmit; the server's 422 messages go beside the
 * field (or above the form when no field fits).
 */
function ForgotPasswordForm({ send }: { send: ReturnType<typeof useSendResetEmail> }) {
  const captcha = useCaptchaToken('forgotPasswordFormSubmit');
  const {
    setValue,
    getValues,
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ForgotPasswordInput>({
    mode: 'onTouched',
    resolver: zodResolver(forgotPasswordInputSchema),
    defaultValues: { username: '' },
  });
  useTypedDuringHydration({ setValue, getValues }, ['username']);
  const values = useWatch({ control });
  const valid = forgotPasswordInputSchema.safeParse(values).success;

  const onSubmit = handleSubmit(async (input) => {
    const gReCaptchaToken = await captcha.getToken();
    if (!gReCaptchaToken) return;
    send.mutate(
      { ...input, gReCaptchaToken },
      {
        onError: (error) => {
          const message = toApiError(error).fieldError('username');
          if (message) setError('username', { type: 'server', message }, { shouldFocus: true });
        },
      },
    );
  });

  const failure = failureText(send.error, FIELDS);
  const usernameError = errors.username;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="5">
        {failure && <FailureAlert title={m['recovery.forgotPassword.failed']()} text={failure} />}
        <Field.Root required invalid={!!usernameError}>
          <Field.Label>
            {m['recovery.forgotPassword.username']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            {...register('username')}
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            autoFocus
          />
          <Field.ErrorText>{usernameError?.message}</Field.ErrorText>
        </Field.Root>
        <Button type="submit" size="lg" disabled={!valid} loading={captcha.pending || send.isPending}>
          {m['recovery.forgotPassword.submit']()}
        </Button>
      </Stack>
    </form>
  );
}

/** /recovery/forgot-password: asks for the username, then shows the neutral answer. */
export function ForgotPasswordScreen() {
  const send = useSendResetEmail();
  return (
    <RecoveryCard
      title={m['recovery.forgotPassword.title']()}
      subtitle={send.isSuccess ? undefined : m['recovery.forgotPassword.subtitle']()}
    >
      {send.isSuccess ? <RequestSent message={send.data.message} /> : <ForgotPasswordForm send={send} />}
    </RecoveryCard>
  );
}
