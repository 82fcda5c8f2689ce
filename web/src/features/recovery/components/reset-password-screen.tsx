import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheckBig, Unlink } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { HStack, Stack } from 'styled-system/jsx';

import { ConnectionError } from '@/components/errors/connection-error';
import { Result } from '@/components/feedback/result';
import { PasswordStrengthMeter } from '@/components/form/password-strength-meter';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';

import { useResetTokenCheck } from '../api/check-reset-token';
import {
  resetPasswordInputSchema,
  useResetPassword,
  type ResetPasswordField,
  type ResetPasswordInput,
} from '../api/reset-password';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';
import { FailureAlert } from '@/components/feedback/failure-alert';
import { m } from '@/paraglide/messages';
import { RecoveryCard } from './recovery-card';

const FIELDS: readonly ResetPasswordField[] = ['password', 'passwordConfirm'];
/** A token error switches to the invalid-link view, so it never needs a place in the form. */
const PLACED = [...FIELDS, 'token'] as const;

function Checking() {
  return (
    <HStack gap="3" justify="center" py="6" color="fg.muted" role="status">
      <Spinner size="sm" />
      <Text>{m['recovery.resetPassword.checking']()}</Text>
    </HStack>
  );
}

/** The link is unknown, used or expired (spec section 8): ask for a new one. */
function InvalidLink() {
  return (
    <Result icon={Unlink} tone="red" title={m['recovery.resetPassword.invalid.title']()}>
      <Text color="fg.muted">{m['recovery.resetPassword.invalid.text']()}</Text>
      <Button asChild mt="2">
        <RouterLink to={paths.forgotPassword}>{m['recovery.resetPassword.invalid.action']()}</RouterLink>
      </Button>
    </Result>
  );
}

function Done() {
  return (
    <Result icon={CircleCheckBig} tone="green" title={m['recovery.resetPassword.success.title']()}>
      <Text color="fg.muted">{m['recovery.resetPassword.success.text']()}</Text>
      <Button asChild mt="2">
        <RouterLink to={paths.login}>{m['recovery.resetPassword.success.login']()}</RouterLink>
      </Button>
    </Result>
  );
}

/**
 * The new password (strong, with the strength meter) and its confirmation. The server's 422
 * messages for either go beside it; a token error is handled by the screen.
 */
function NewPasswordForm({ token, reset }: { token: string; reset: ReturnType<typeof useResetPassword> }) {
  const {
    control,
    register,
    handleSubmit,
    setError,
    trigger,
    getFieldState,
    formState: { errors },
  } = useForm<ResetPasswordInput>({
    mode: 'onTouched',
    resolver: zodResolver(resetPasswordInputSchema),
    defaultValues: { password: '', passwordConfirm: '' },
  });
  const values = useWatch({ control }) as ResetPasswordInput;
  const valid = resetPasswordInputSchema.safeParse(values).success;

  const onSubmit = handleSubmit((input) =>
    reset.mutate(
      { ...input, token },
      {
        onError: (error) => placeServerErrors(error, FIELDS, setError),
      },
    ),
  );

  const failure = failureText(reset.error, PLACED);

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="5">
        {failure && <FailureAlert title={m['recovery.resetPassword.failed']()} text={failure} />}
        <Field.Root required invalid={!!errors.password}>
          <Field.Label>
            {m['recovery.resetPassword.password']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput
            {...register('password', {
              onChange: () => {
                if (getFieldState('passwordConfirm').isTouched) void trigger('passwordConfirm');
              },
            })}
            autoComplete="new-password"
            autoFocus
          />
          <Field.ErrorText>{errors.password?.message}</Field.ErrorText>
          <PasswordStrengthMeter password={values.password} mt="1" />
        </Field.Root>
        <Field.Root required invalid={!!errors.passwordConfirm}>
          <Field.Label>
            {m['recovery.resetPassword.passwordConfirm']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput {...register('passwordConfirm')} autoComplete="new-password" />
          <Field.ErrorText>{errors.passwordConfirm?.message}</Field.ErrorText>
        </Field.Root>
        <Button type="submit" size="lg" disabled={!valid} loading={reset.isPending}>
          {m['recovery.resetPassword.submit']()}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * Password reset (spec section 4): the link's token is checked first, then the invalid-link
 * view or the new-password form, then the success view. A token the server refuses on submit
 * (used or expired meanwhile) turns the form into the invalid-link view.
 */
function ResetPassword({ token }: { token: string }) {
  const check = useResetTokenCheck(token);
  const reset = useResetPassword();

  const view = (() => {
    if (reset.isSuccess) return 'done';
    // While the new password is being set, the form stays whatever the token's check says.
    if (reset.isPending) return 'form';
    if (check.isPending) return 'checking';
    if (check.isError) return 'error';
    return check.data.valid ? 'form' : 'invalid';
  })();

  return (
    <RecoveryCard
      title={m['recovery.resetPassword.title']()}
      subtitle={view === 'form' ? m['recovery.resetPassword.subtitle']() : undefined}
      backToLogin={view !== 'done'}
    >
      {view === 'checking' && <Checking />}
      {view === 'error' && <ConnectionError onRetry={() => void check.refetch()} />}
      {view === 'invalid' && <InvalidLink />}
      {view === 'form' && <NewPasswordForm token={token} reset={reset} />}
      {view === 'done' && <Done />}
    </RecoveryCard>
  );
}

/** /recovery/forgot-password/:token, the link of the reset mail; without a token, /login. */
export function ResetPasswordScreen() {
  const { token } = useParams();
  if (!token) return <Navigate to={paths.login} replace />;
  // A new token is a new link: nothing of the previous one's form or outcome carries over.
  return <ResetPassword key={token} token={token} />;
}
