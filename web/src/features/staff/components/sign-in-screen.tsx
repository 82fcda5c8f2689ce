import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useLocation } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { SuccessBanner } from '@/components/feedback/success-banner';
import { AuthCard } from '@/components/layouts/auth-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { PasswordInput } from '@/components/ui/password-input';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { useThrottleLock } from '@/hooks/use-throttle-lock';
import { toApiError } from '@/lib/api-client';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { placeServerErrors } from '@/lib/server-errors';
import { throttleLockOf } from '@/lib/throttle-lock';
import { m } from '@/paraglide/messages';

import { isEnrolledState } from '../api/enrol';
import { staffSignInSchema, useStaffSignIn, type StaffSignInInput } from '../api/sign-in';
import { staffFailureText } from '../utils/failure';

import { AppCodeField } from './app-code-field';

const FIELDS = ['username', 'password', 'code'] as const;

/**
 * The console's sign-in: username, password and the six-digit code of the authenticator app,
 * all three at once. The server's messages go beside their fields (a wrong username, password
 * or code is one message, beside the username); too many wrong attempts (429) say so above the
 * fields and keep 'Đăng nhập' disabled until the wait is over. Once signed in, the guard of
 * this page leads on to the console. Coming from a finished enrolment, it says so above the form.
 */
export function SignInScreen() {
  const enrolled = isEnrolledState(useLocation().state);
  const signIn = useStaffSignIn();
  const [lock, setLock] = useThrottleLock();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<StaffSignInInput>({
    mode: 'onTouched',
    resolver: zodResolver(staffSignInSchema),
    defaultValues: { username: '', password: '', code: '' },
  });

  const onSubmit = handleSubmit((input) => {
    if (lock) return;
    signIn.mutate(input, {
      onError: (error) => {
        setLock(throttleLockOf(error));
        placeServerErrors(error, FIELDS, setError);
      },
    });
  });

  const failure = signIn.error ? staffFailureText(signIn.error, FIELDS) : null;
  const throttled = signIn.error ? toApiError(signIn.error).status === 429 : false;

  return (
    <AuthCard title={m['staff.signIn.title']()} subtitle={m['staff.signIn.subtitle']()}>
      {enrolled && <SuccessBanner title={m['staff.enrol.done']()} />}
      <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
        <Stack gap="5">
          {failure && (
            <Alert.Root status="error" borderRadius="lg" role="alert">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{m['staff.signIn.failed']()}</Alert.Title>
                <Alert.Description>
                  {failure}
                  {throttled && lock && ` ${m['staff.signIn.tryAgainIn']({ minutes: lock.minutes })}`}
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}

          <Field.Root required invalid={!!errors.username}>
            <Field.Label>
              {m['staff.signIn.username']()}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input
              {...register('username')}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
            />
            <Field.ErrorText>{errors.username?.message}</Field.ErrorText>
          </Field.Root>

          <Field.Root required invalid={!!errors.password}>
            <Field.Label>
              {m['staff.signIn.password']()}
              <Field.RequiredIndicator />
            </Field.Label>
            <PasswordInput {...register('password')} autoComplete="current-password" />
            <Field.ErrorText>{errors.password?.message}</Field.ErrorText>
          </Field.Root>

          <AppCodeField label={m['staff.signIn.code']()} registration={register('code')} error={errors.code?.message} />

          <Button type="submit" size="lg" disabled={!!lock} loading={signIn.isPending}>
            {m['staff.signIn.submit']()}
          </Button>

          <Text textAlign="center" fontSize="sm" color="fg.muted">
            {m['staff.signIn.player']()}{' '}
            <Link href={paths.login} color="brand.fg" fontWeight="semibold">
              {m['staff.signIn.playerLink']()}
            </Link>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
