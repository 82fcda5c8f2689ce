import { Alert, Button, Checkbox, Field, Input, Link, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';

import { PasswordInput } from '@/components/ui/password-input';
import { paths } from '@/config/paths';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { toApiError } from '@/lib/api-client';
import { fromLocation } from '@/lib/auth';
import { enterToNextField } from '@/lib/enter-to-next-field';

import { isTwoFactorRequired, loginResolver, useLogin, type LoginInput } from '../api/login';

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
 */
export function LoginForm({ defaults, onTwoFactorRequired }: LoginFormProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const captcha = useCaptchaToken('loginFormSubmit');
  const login = useLogin({ getCaptchaToken: captcha.getToken });
  const [usernameFlag, setUsernameFlag] = useState<string | null>(null);

  const {
    register,
    control,
    handleSubmit,
    subscribe,
    formState: { errors, isValid, touchedFields, dirtyFields },
  } = useForm<LoginInput>({
    mode: 'onChange',
    resolver: loginResolver,
    defaultValues: { username: defaults?.username ?? '', password: '', remember: defaults?.remember ?? false },
  });

  // The server's complaint about the username holds only until the user edits the form.
  useEffect(
    () => subscribe({ formState: { values: true }, callback: () => setUsernameFlag(null) }),
    [subscribe],
  );

  const onSubmit = handleSubmit((values) => {
    setUsernameFlag(null);
    login.mutate(values, {
      onSuccess: (answer) => {
        if (isTwoFactorRequired(answer)) onTwoFactorRequired(values);
      },
      onError: (error) => setUsernameFlag(toApiError(error).fieldError('username') ?? null),
    });
  });

  const error = login.error ? toApiError(login.error) : null;
  const shown = (field: 'username' | 'password') => touchedFields[field] || dirtyFields[field];
  const usernameError = shown('username') ? errors.username?.message : undefined;
  const passwordError = shown('password') ? errors.password?.message : undefined;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="5">
        {error && (
          <Alert.Root status="error" borderRadius="lg" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('auth.login.failed')}</Alert.Title>
              <Alert.Description>{error.message}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}

        <Field.Root required invalid={!!usernameError || !!usernameFlag}>
          <Field.Label>
            {t('auth.login.username')}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input {...register('username')} autoComplete="username" autoCapitalize="none" autoFocus={!defaults?.username} />
          <Field.ErrorText>
            {usernameError ? t(usernameError as 'auth.login.validation.usernameRequired') : usernameFlag}
          </Field.ErrorText>
        </Field.Root>

        <Field.Root required invalid={!!passwordError}>
          <Field.Label>
            {t('auth.login.password')}
            <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput {...register('password')} autoComplete="current-password" autoFocus={!!defaults?.username} />
          <Field.ErrorText>
            {passwordError && t(passwordError as 'auth.login.validation.passwordRequired')}
          </Field.ErrorText>
        </Field.Root>

        <Stack direction="row" justify="space-between" align="center" wrap="wrap" gap="3">
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
                <Checkbox.Label>{t('auth.login.remember')}</Checkbox.Label>
              </Checkbox.Root>
            )}
          />
          <Link asChild fontSize="sm" color="brand.fg">
            <RouterLink to={paths.recovery}>{t('auth.login.forgot')}</RouterLink>
          </Link>
        </Stack>

        <Button type="submit" size="lg" disabled={!isValid} loading={login.isPending}>
          {t('auth.login.submit')}
        </Button>

        <Text textAlign="center" fontSize="sm" color="fg.muted">
          {t('auth.login.noAccount')}{' '}
          <Link asChild color="brand.fg" fontWeight="semibold">
            <RouterLink
              to={{ pathname: paths.register, search: location.search }}
              state={{ from: fromLocation(location.state) }}
            >
              {t('auth.login.register')}
            </RouterLink>
          </Link>
        </Text>
      </Stack>
    </form>
  );
}
