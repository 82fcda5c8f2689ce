import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link as RouterLink, useLocation } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { PasskeyHostNote } from '@/components/feedback/passkey-host-note';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { PasswordInput } from '@/components/ui/password-input';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { useHydrated } from '@/hooks/use-hydrated';
import { ApiError, toApiError } from '@/lib/api-client';
import { fromLocation } from '@/lib/auth';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { useTypedDuringHydration } from '@/lib/hydration-typing';
import { browserHasPasskeys, isPasskeyPromptDismissed, passkeyHostUrl } from '@/lib/passkeys';
import { m } from '@/paraglide/messages';

import { isTwoFactorRequired, loginResolver, useLogin, type LoginInput } from '../api/login';
import { usePasskeySignIn } from '../api/passkey-sign-in';

/** What the form starts with when the player comes back from the code step: all but the password. */
export type LoginDefaults = Pick<LoginInput, 'username' | 'remember'>;

type LoginFormProps = {
  /** Empty fields when not given. */
  defaults?: LoginDefaults;
  /** The password was right and the account has two-factor on: a code is asked next. */
  onTwoFactorRequired: (input: LoginInput) => void;
};

/**
 * Username, password and 'remember me'. The attempt goes without a captcha; when the gateway
 * throttles it (429) it is sent once more with a loginFormSubmit token. The server's message
 * for the username goes beside it until the form is edited; any other failure, such as the
 * throttling message, shows in the alert above the fields. When the account has two-factor on,
 * the right password leads to the code step (`onTwoFactorRequired`) instead of signing in.
 * 'Đăng nhập bằng passkey' signs in with a passkey instead, 'remember me' as ticked; its refusal
 * shows in the same alert, and a prompt the player closed says so calmly. A browser without
 * WebAuthn offers no passkey; on an IP address, where browsers refuse them, a link to the same
 * page on localhost stands in for the button.
 */
export function LoginForm({ defaults, onTwoFactorRequired }: LoginFormProps) {
  const location = useLocation();
  const captcha = useCaptchaToken('loginFormSubmit');
  const login = useLogin({ getCaptchaToken: captcha.getToken });
  const passkey = usePasskeySignIn();
  // The prerendered HTML offers the passkey; once hydrated, the browser says whether it can.
  const hydrated = useHydrated();
  const passkeys = !hydrated || browserHasPasskeys();
  const passkeyHost = hydrated ? passkeyHostUrl() : null;
  const [usernameFlag, setUsernameFlag] = useState<string | null>(null);

  const {
    setValue,
    register,
    control,
    handleSubmit,
    getValues,
    subscribe,
    formState: { errors, isValid, touchedFields, dirtyFields },
  } = useForm<LoginInput>({
    mode: 'onChange',
    resolver: loginResolver,
    defaultValues: {
      username: defaults?.username ?? '',
      password: '',
      remember: defaults?.remember ?? false,
    },
  });
  useTypedDuringHydration({ setValue, getValues }, ['username', 'password', 'remember']);

  // The server's complaint about the username holds only until the user edits the form.
  useEffect(() => subscribe({ formState: { values: true }, callback: () => setUsernameFlag(null) }), [subscribe]);

  const onSubmit = handleSubmit((values) => {
    setUsernameFlag(null);
    passkey.reset();
    login.mutate(values, {
      onSuccess: (answer) => {
        if (isTwoFactorRequired(answer)) onTwoFactorRequired(values);
      },
      onError: (error) => setUsernameFlag(toApiError(error).fieldError('username') ?? null),
    });
  });

  const signInWithPasskey = () => {
    login.reset();
    passkey.mutate(getValues('remember'));
  };

  const cancelled = isPasskeyPromptDismissed(passkey.error);
  const failure = login.error
    ? toApiError(login.error).message
    : passkey.error instanceof ApiError
      ? (passkey.error.fieldError('credential') ?? passkey.error.message)
      : passkey.error && (cancelled ? m['auth.login.passkeyCancelled']() : m['auth.login.passkeyFailed']());
  const shown = (field: 'username' | 'password') => touchedFields[field] || dirtyFields[field];
  const usernameError = shown('username') ? errors.username?.message : undefined;
  const passwordError = shown('password') ? errors.password?.message : undefined;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="5">
        {failure && (
          <Alert.Root status={cancelled ? 'info' : 'error'} borderRadius="lg" role={cancelled ? 'status' : 'alert'}>
            <Alert.Indicator />
            <Alert.Content>
              {!cancelled && <Alert.Title>{m['auth.login.failed']()}</Alert.Title>}
              <Alert.Description>{failure}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}

        <Field.Root required invalid={!!usernameError || !!usernameFlag}>
          <Field.Label>
            {m['auth.login.username']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            {...register('username')}
            autoComplete="username"
            autoCapitalize="none"
            autoFocus={!defaults?.username}
          />
          <Field.ErrorText>{usernameError ?? usernameFlag}</Field.ErrorText>
        </Field.Root>

        <Field.Root required invalid={!!passwordError}>
          <Field.Label>
            {m['auth.login.password']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput {...register('password')} autoComplete="current-password" autoFocus={!!defaults?.username} />
          <Field.ErrorText>{passwordError}</Field.ErrorText>
        </Field.Root>

        <Stack direction="row" justify="space-between" align="center" flexWrap="wrap" gap="3">
          <Controller
            control={control}
            name="remember"
            render={({ field }) => (
              <Checkbox.Root
                checked={field.value}
                onCheckedChange={({ checked }) => field.onChange(checked === true)}
                name={field.name}
              >
                <Checkbox.HiddenInput onBlur={field.onBlur} />
                <Checkbox.Control />
                <Checkbox.Label>{m['auth.login.remember']()}</Checkbox.Label>
              </Checkbox.Root>
            )}
          />
          <Link asChild fontSize="sm" color="brand.fg">
            <RouterLink to={paths.recovery}>{m['auth.login.forgot']()}</RouterLink>
          </Link>
        </Stack>

        <Button type="submit" size="lg" disabled={!isValid} loading={login.isPending}>
          {m['auth.login.submit']()}
        </Button>

        {passkeys &&
          (passkeyHost ? (
            <PasskeyHostNote url={passkeyHost} textAlign="center" />
          ) : (
            <Button
              type="button"
              variant="outline"
              size="lg"
              loading={passkey.isPending}
              disabled={!hydrated || login.isPending}
              onClick={signInWithPasskey}
            >
              {m['auth.login.passkey']()}
            </Button>
          ))}

        <Text textAlign="center" fontSize="sm" color="fg.muted">
          {m['auth.login.noAccount']()}{' '}
          <Link asChild color="brand.fg" fontWeight="semibold">
            <RouterLink
              to={{ pathname: paths.register, search: location.search }}
              state={{ from: fromLocation(location.state) }}
            >
              {m['auth.login.register']()}
            </RouterLink>
          </Link>
        </Text>
      </Stack>
    </form>
  );
}
