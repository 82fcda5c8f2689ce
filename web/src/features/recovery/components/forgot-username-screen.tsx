import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toApiError } from '@/lib/api-client';

import {
  EMAIL_MAX_LENGTH,
  forgotUsernameInputSchema,
  useRecoverUsername,
  type ForgotUsernameInput,
} from '../api/recover-username';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { useTypedDuringHydration } from '@/lib/hydration-typing';
import { failureText } from '@/lib/failure-text';
import { FailureAlert } from '@/components/feedback/failure-alert';
import { m } from '@/paraglide/messages';
import { RecoveryCard } from './recovery-card';
import { RequestSent } from './request-sent';

const FIELDS = ['email'] as const;

/**
 * The address whose account's username is mailed. Submit is enabled once the address is valid
 * (any top-level domain) and sends a captcha token for forgotUsernameFormSubmit; the server's
 * 422 messages go beside the field (or above the form when no field fits).
 */
function ForgotUsernameForm({ recover }: { recover: ReturnType<typeof useRecoverUsername> }) {
  const captcha = useCaptchaToken('forgotUsernameFormSubmit');
  const {
    setValue,
    getValues,
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ForgotUsernameInput>({
    mode: 'onTouched',
    resolver: zodResolver(forgotUsernameInputSchema),
    defaultValues: { email: '' },
  });
  useTypedDuringHydration({ setValue, getValues }, ['email']);
  const values = useWatch({ control });
  const valid = forgotUsernameInputSchema.safeParse(values).success;

  const onSubmit = handleSubmit(async (input) => {
    const gReCaptchaToken = await captcha.getToken();
    if (!gReCaptchaToken) return;
    recover.mutate(
      { ...input, gReCaptchaToken },
      {
        onError: (error) => {
          const message = toApiError(error).fieldError('email');
          if (message) setError('email', { type: 'server', message }, { shouldFocus: true });
        },
      },
    );
  });

  const failure = failureText(recover.error, FIELDS);
  const emailError = errors.email;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="5">
        {failure && <FailureAlert title={m['recovery.forgotUsername.failed']()} text={failure} />}
        <Field.Root required invalid={!!emailError}>
          <Field.Label>
            {m['recovery.forgotUsername.email']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            {...register('email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            maxLength={EMAIL_MAX_LENGTH}
            autoFocus
          />
          <Field.ErrorText>{emailError?.message}</Field.ErrorText>
        </Field.Root>
        <Button type="submit" size="lg" disabled={!valid} loading={captcha.pending || recover.isPending}>
          {m['recovery.forgotUsername.submit']()}
        </Button>
      </Stack>
    </form>
  );
}

/** /recovery/forgot-username: asks for the account's email address, then shows the neutral answer. */
export function ForgotUsernameScreen() {
  const recover = useRecoverUsername();
  return (
    <RecoveryCard
      title={m['recovery.forgotUsername.title']()}
      subtitle={recover.isSuccess ? undefined : m['recovery.forgotUsername.subtitle']()}
    >
      {recover.isSuccess ? <RequestSent message={recover.data.message} /> : <ForgotUsernameForm recover={recover} />}
    </RecoveryCard>
  );
}
