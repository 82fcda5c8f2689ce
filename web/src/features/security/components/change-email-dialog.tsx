import { zodResolver } from '@hookform/resolvers/zod';
import { CircleAlert, MailCheck } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { HStack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Text } from '@/components/ui/text';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { toApiError } from '@/lib/api-client';
import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import {
  changeEmailInputSchema,
  EMAIL_MAX_LENGTH,
  needsCurrentPassword,
  needsSecurityCode,
  sameEmail,
  SECURITY_CODE_LENGTH,
  useChangeEmail,
  type ChangeEmailField,
  type ChangeEmailInput,
  type CurrentEmail,
} from '../api/change-email';
import { useSendSecurityCode } from '../api/send-security-code';
import { FormDialog } from '@/components/ui/form-dialog';

type ChangeEmailDialogProps = {
  current: CurrentEmail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the user as the server now has it, once the address changed. */
  onChanged: (user: User) => void;
};

/** The fields on screen, beside which the server's messages for them go. */
function fieldsShown(codeStep: boolean, passwordStep: boolean): readonly ChangeEmailField[] {
  if (codeStep) return ['email', 'securityCode'];
  if (passwordStep) return ['email', 'currentPassword'];
  return ['email'];
}

/** The server's answer to sending a code: that it went out, or why not (e.g. asked again too soon). */
function SendCodeStatus({ send }: { send: ReturnType<typeof useSendSecurityCode> }) {
  if (send.isSuccess) {
    return (
      <HStack role="status" alignItems="flex-start" gap="2" fontSize="sm" color="fg.success">
        <MailCheck size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Text>{send.data.message}</Text>
      </HStack>
    );
  }
  if (send.isError) {
    return (
      <HStack role="alert" alignItems="flex-start" gap="2" fontSize="sm" color="fg.error">
        <CircleAlert size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Text>{toApiError(send.error).message}</Text>
      </HStack>
    );
  }
  return null;
}

/**
 * The email-change modal: the new address and, once it differs, the security code mailed to the
 * current address while that is verified, or else the current password. Save is disabled while the
 * address is unchanged, the form is invalid or a save is under way; it sends a captcha token
 * for changeEmailFormSubmit and does nothing when the captcha gives none. Mount it afresh
 * (a new `key`) for each opening.
 */
export function ChangeEmailDialog({ current, open, onOpenChange, onChanged }: ChangeEmailDialogProps) {
  const schema = useMemo(
    () => changeEmailInputSchema({ email: current.email, verifiedAt: current.verifiedAt }),
    [current.email, current.verifiedAt],
  );
  const captcha = useCaptchaToken('changeEmailFormSubmit');
  const change = useChangeEmail();
  const send = useSendSecurityCode();
  const [codeSent, setCodeSent] = useState(false);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ChangeEmailInput>({
    mode: 'onTouched',
    resolver: zodResolver(schema),
    defaultValues: { email: current.email, securityCode: '', currentPassword: '' },
  });
  const values = useWatch({ control }) as ChangeEmailInput;
  const codeStep = needsSecurityCode(current, values.email);
  const passwordStep = needsCurrentPassword(current, values.email);
  const changed = !sameEmail(values.email, current.email);
  const valid = schema.safeParse(values).success;
  const placed = fieldsShown(codeStep, passwordStep);

  const onSubmit = handleSubmit(async (input) => {
    const withCode = needsSecurityCode(current, input.email);
    const withPassword = needsCurrentPassword(current, input.email);
    const gReCaptchaToken = await captcha.getToken();
    if (!gReCaptchaToken) return;
    change.mutate(
      {
        email: input.email,
        securityCode: withCode ? input.securityCode : '',
        currentPassword: withPassword ? input.currentPassword : '',
        gReCaptchaToken,
      },
      {
        onSuccess: onChanged,
        onError: (error) => placeServerErrors(error, fieldsShown(withCode, withPassword), setError),
      },
    );
  });

  const failure = failureText(change.error, placed);
  const processing = captcha.pending || change.isPending;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={m['security.email.dialogTitle']()}
      onSubmit={(event) => void onSubmit(event)}
      canSave={changed && valid && !processing}
      pending={processing}
      failure={failure ? { title: m['security.email.failed'](), text: failure } : null}
    >
      <Field.Root required invalid={!!errors.email}>
        <Field.Label>
          {m['security.email.newEmail']()}
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
        />
        <Field.ErrorText>{errors.email?.message}</Field.ErrorText>
      </Field.Root>
      {codeStep && (
        <Field.Root required invalid={!!errors.securityCode}>
          <Field.Label>
            {m['security.email.securityCode']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <HStack gap="2" w="full" alignItems="flex-start">
            <Input
              {...register('securityCode')}
              flex="1"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={SECURITY_CODE_LENGTH}
            />
            <Button
              type="button"
              variant="outline"
              flexShrink={0}
              loading={send.isPending}
              onClick={() => send.mutate('confirm.change_email', { onSuccess: () => setCodeSent(true) })}
            >
              {codeSent ? m['security.email.resendCode']() : m['security.email.sendCode']()}
            </Button>
          </HStack>
          <Field.ErrorText>{errors.securityCode?.message}</Field.ErrorText>
          <Field.HelperText>{m['security.email.securityCodeHelp']({ email: current.email })}</Field.HelperText>
          <SendCodeStatus send={send} />
        </Field.Root>
      )}
      {passwordStep && (
        <Field.Root required invalid={!!errors.currentPassword}>
          <Field.Label>
            {m['security.email.currentPassword']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput {...register('currentPassword')} autoComplete="current-password" />
          <Field.ErrorText>{errors.currentPassword?.message}</Field.ErrorText>
          <Field.HelperText>{m['security.email.currentPasswordHelp']()}</Field.HelperText>
        </Field.Root>
      )}
    </FormDialog>
  );
}
