import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { PasswordStrengthMeter } from '@/components/form/password-strength-meter';
import { ContentCard } from '@/components/layouts/content-card';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';

import {
  changePasswordInputSchema,
  useChangePassword,
  type ChangePasswordField,
  type ChangePasswordInput,
} from '../api/change-password';
import { SectionHeader } from './section-header';
import { SuccessBanner } from '@/components/feedback/success-banner';
import { m } from '@/paraglide/messages';

const FIELDS: readonly ChangePasswordField[] = ['currentPassword', 'password', 'passwordConfirm'];

/**
 * The current password, a new one of medium strength (with the strength meter) and its
 * confirmation. The attempt goes without a captcha; when the gateway throttles it (429) it is
 * sent once more with a changePasswordFormSubmit token. The server's 422 messages, such as a
 * wrong current password, go beside their field; anything else, such as the throttling
 * message, shows above the form. On success the form empties and says that the other devices
 * were signed out.
 */
export function ChangePasswordForm({ username }: { username: string }) {
  const titleId = useId();
  const captcha = useCaptchaToken('changePasswordFormSubmit');
  const change = useChangePassword({ getCaptchaToken: captcha.getToken });
  const {
    control,
    register,
    handleSubmit,
    setError,
    trigger,
    getFieldState,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordInput>({
    mode: 'onTouched',
    resolver: zodResolver(changePasswordInputSchema),
    defaultValues: { currentPassword: '', password: '', passwordConfirm: '' },
  });
  const values = useWatch({ control }) as ChangePasswordInput;
  const valid = changePasswordInputSchema.safeParse(values).success;

  const onSubmit = handleSubmit((input) =>
    change.mutate(input, {
      onSuccess: () => reset(),
      onError: (error) => placeServerErrors(error, FIELDS, setError),
    }),
  );

  const failure = failureText(change.error, FIELDS);

  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <SectionHeader
        id={titleId}
        title={m['security.password.heading']()}
        description={m['security.password.description']()}
      />
      {change.isSuccess && (
        <SuccessBanner title={m['security.password.success']()}>{m['security.password.successText']()}</SuccessBanner>
      )}
      <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
        <Stack gap="5" maxW={{ md: 'md' }}>
          {failure && <FailureAlert title={m['security.password.failed']()} text={failure} />}
          <Field.Root required invalid={!!errors.currentPassword}>
            <Field.Label>
              {m['security.password.currentPassword']()}
              <Field.RequiredIndicator />
            </Field.Label>
            <PasswordInput {...register('currentPassword')} autoComplete="current-password" />
            <Field.ErrorText>{errors.currentPassword?.message}</Field.ErrorText>
          </Field.Root>
          <Field.Root required invalid={!!errors.password}>
            <Field.Label>
              {m['security.password.password']()}
              <Field.RequiredIndicator />
            </Field.Label>
            <PasswordInput
              {...register('password', {
                onChange: () => {
                  if (getFieldState('passwordConfirm').isTouched) void trigger('passwordConfirm');
                },
              })}
              autoComplete="new-password"
            />
            <Field.ErrorText>{errors.password?.message}</Field.ErrorText>
            <PasswordStrengthMeter password={values.password} mt="1" />
          </Field.Root>
          <Field.Root required invalid={!!errors.passwordConfirm}>
            <Field.Label>
              {m['security.password.passwordConfirm']()}
              <Field.RequiredIndicator />
            </Field.Label>
            <PasswordInput {...register('passwordConfirm')} autoComplete="new-password" />
            <Field.ErrorText>{errors.passwordConfirm?.message}</Field.ErrorText>
          </Field.Root>
          <Button
            type="submit"
            alignSelf={{ base: 'stretch', sm: 'flex-start' }}
            disabled={!valid}
            loading={change.isPending}
          >
            {m['security.password.submit']()}
          </Button>
        </Stack>
      </form>
    </ContentCard>
  );
}
