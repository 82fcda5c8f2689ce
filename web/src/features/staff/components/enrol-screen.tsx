import { zodResolver } from '@hookform/resolvers/zod';
import { Check, Copy } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Box, Flex, HStack, Stack } from 'styled-system/jsx';

import { ConnectionError } from '@/components/errors/connection-error';
import { FailureAlert } from '@/components/feedback/failure-alert';
import { PasswordStrengthMeter } from '@/components/form/password-strength-meter';
import { AuthCard } from '@/components/layouts/auth-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { Code, Text } from '@/components/ui/text';
import { useCopyToClipboard } from '@/hooks/use-copy-to-clipboard';
import { useThrottleLock } from '@/hooks/use-throttle-lock';
import { toApiError } from '@/lib/api-client';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { placeServerErrors } from '@/lib/server-errors';
import { throttleLockOf } from '@/lib/throttle-lock';
import { m } from '@/paraglide/messages';
import type { StaffEnrolmentBody } from '@/types/api-schema';

import { useEnrolmentCheck } from '../api/check-enrolment';
import { ENROL_FIELDS, enrolSchema, ENROLLED_STATE, useEnrol, type EnrolInput } from '../api/enrol';
import { staffPaths } from '../config/paths';
import { staffFailureText } from '../utils/failure';

import { AppCodeField } from './app-code-field';
import { formatVietnamTime } from '../utils/time';

/** As the player's two-factor set-up: an otpauth URL wants a larger code than a transfer's. */
const QR_SIZE = 176;

/**
 * The link's token, read once from the address's fragment (where the mail puts it, so no server
 * log has it), which is then taken out of the address bar and the history entry.
 */
function useLinkToken(): string {
  const [token] = useState(() => window.location.hash.slice(1));
  useEffect(() => {
    if (!window.location.hash) return;
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  }, []);
  return token;
}

function Checking() {
  return (
    <HStack gap="3" justify="center" py="6" color="fg.muted" role="status">
      <Spinner size="sm" />
      <Text>{m['staff.enrol.checking']()}</Text>
    </HStack>
  );
}

/** No token, or one the server does not know (used, expired, replaced): the admin sends a new one. */
function InvalidLink({ message }: { message: string }) {
  return (
    <Stack gap="5">
      <Alert.Root status="error" borderRadius="lg" role="alert">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Description>{message}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Button asChild variant="outline">
        <RouterLink to={staffPaths.signIn}>{m['staff.enrol.toSignIn']()}</RouterLink>
      </Button>
    </Stack>
  );
}

/** The app secret in base32, for typing into the authenticator app, with a copy button. */
function Secret({ secret }: { secret: string }) {
  const { copied, copy } = useCopyToClipboard();
  const copyLabel = m['staff.enrol.copySecret']();
  return (
    <Stack gap="1.5">
      <Text fontSize="sm" color="fg.muted">
        {m['staff.enrol.secret']()}
      </Text>
      <Flex align="center" gap="2" wrap="wrap">
        <Code
          data-testid="staff-totp-secret"
          size="lg"
          fontFamily="mono"
          letterSpacing="wider"
          overflowWrap="anywhere"
          wordBreak="break-all"
          userSelect="all"
        >
          {secret}
        </Code>
        <Button
          type="button"
          size="xs"
          variant="outline"
          onClick={() => void copy(secret)}
          aria-label={copyLabel}
          title={copyLabel}
        >
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? m['staff.enrol.copied']() : m['staff.enrol.copy']()}
        </Button>
      </Flex>
    </Stack>
  );
}

/** What the authenticator app needs: the QR code of the otpauth URL, the secret, and the link's deadline. */
function AppSetUp({ enrolment }: { enrolment: StaffEnrolmentBody }) {
  const { username } = enrolment;
  return (
    <Stack gap="4">
      <Text>{m['staff.enrol.intro']({ username })}</Text>
      <Box
        alignSelf="center"
        p="3"
        bg="white"
        borderRadius="lg"
        borderWidth="1px"
        borderColor="gray.200"
        lineHeight="0"
      >
        <QRCodeSVG
          value={enrolment.otpauthUrl}
          size={QR_SIZE}
          level="M"
          bgColor="#ffffff"
          fgColor="#000000"
          title={m['staff.enrol.qr']({ username })}
        />
      </Box>
      <Secret secret={enrolment.totpSecret} />
      <Text fontSize="sm" color="fg.muted">
        {m['staff.enrol.expiresAt']({ time: formatVietnamTime(enrolment.expiresAt, { seconds: false }) })}
      </Text>
    </Stack>
  );
}

/**
 * The member's own password, typed twice, and a code of the app they just set up. The server's
 * 422 messages go beside their fields; too many attempts (429) say so above them and keep the
 * button disabled until the wait is over. Once enrolled, the sign-in page, which says so.
 */
function EnrolForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const enrol = useEnrol();
  const [lock, setLock] = useThrottleLock();
  const {
    control,
    register,
    handleSubmit,
    setError,
    trigger,
    getFieldState,
    formState: { errors },
  } = useForm<EnrolInput>({
    mode: 'onTouched',
    resolver: zodResolver(enrolSchema),
    defaultValues: { password: '', passwordConfirm: '', code: '' },
  });
  const password = useWatch({ control, name: 'password' });

  const onSubmit = handleSubmit((input) => {
    if (lock) return;
    enrol.mutate(
      { ...input, token },
      {
        onSuccess: () => void navigate(staffPaths.signIn, { replace: true, state: ENROLLED_STATE }),
        onError: (error) => {
          setLock(throttleLockOf(error));
          placeServerErrors(error, ENROL_FIELDS, setError);
        },
      },
    );
  });

  const failure = staffFailureText(enrol.error, ENROL_FIELDS);
  const throttled = enrol.error ? toApiError(enrol.error).status === 429 : false;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="5">
        {failure && (
          <FailureAlert
            title={m['staff.enrol.failed']()}
            text={throttled && lock ? `${failure} ${m['staff.enrol.tryAgainIn']({ minutes: lock.minutes })}` : failure}
          />
        )}
        <Field.Root required invalid={!!errors.password}>
          <Field.Label>
            {m['staff.enrol.password']()}
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
          <PasswordStrengthMeter password={password} mt="1" />
        </Field.Root>
        <Field.Root required invalid={!!errors.passwordConfirm}>
          <Field.Label>
            {m['staff.enrol.passwordConfirm']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput {...register('passwordConfirm')} autoComplete="new-password" />
          <Field.ErrorText>{errors.passwordConfirm?.message}</Field.ErrorText>
        </Field.Root>
        <AppCodeField label={m['staff.enrol.code']()} registration={register('code')} error={errors.code?.message} />
        <Button type="submit" size="lg" disabled={!!lock} loading={enrol.isPending}>
          {m['staff.enrol.submit']()}
        </Button>
      </Stack>
    </form>
  );
}

/** The link's token checked, then the invalid-link view or the set-up and its form. */
function Enrolment({ token }: { token: string }) {
  const check = useEnrolmentCheck(token);

  if (check.isPending) return <Checking />;
  if (check.isError) return <ConnectionError onRetry={() => void check.refetch()} />;
  if (!check.data.valid) return <InvalidLink message={check.data.message} />;
  return (
    <Stack gap="6">
      <AppSetUp enrolment={check.data.enrolment} />
      <EnrolForm token={token} />
    </Stack>
  );
}

/**
 * /staff/enrol#<token>, the link mailed to a new member (or one whose credentials an admin
 * reset): the member adds the offered secret to their authenticator app, sets their own
 * password and confirms with a code. Nobody else, the admin included, ever sees either.
 */
export function EnrolScreen() {
  const token = useLinkToken();
  return (
    <AuthCard title={m['staff.enrol.title']()}>
      {token ? <Enrolment token={token} /> : <InvalidLink message={m['staff.enrol.invalid']()} />}
    </AuthCard>
  );
}
