import { zodResolver } from '@hookform/resolvers/zod';
import { Check, Copy, Download } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useForm, useWatch } from 'react-hook-form';
import { Box, Flex, Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { CurrentPasswordField } from '@/components/form/current-password-field';
import { Alert } from '@/components/ui/alert';
import { Button, CloseButton } from '@/components/ui/button';
import { Dialog, Portal } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Code, Text } from '@/components/ui/text';
import { useCopyToClipboard } from '@/hooks/use-copy-to-clipboard';
import { useThrottleLock } from '@/hooks/use-throttle-lock';
import { toApiError } from '@/lib/api-client';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';
import { throttleLockOf } from '@/lib/throttle-lock';
import { m } from '@/paraglide/messages';
import type { Enrolment } from '@/types/api-schema';

import {
  confirmTwoFactorInputSchema,
  useConfirmTwoFactor,
  type ConfirmTwoFactorInput,
} from '../api/confirm-two-factor';
import {
  startTwoFactorInputSchema,
  useStartTwoFactor,
  type StartTwoFactorField,
  type StartTwoFactorInput,
} from '../api/start-two-factor';

/** The QR code's side in pixels: an otpauth URL is longer than a transfer's, so a little larger. */
const QR_SIZE = 176;

const FIELDS = ['code'] as const;
const PASSWORD_FIELDS: readonly StartTwoFactorField[] = ['password'];

type TwoFactorSetupDialogProps = {
  username: string;
  open: boolean;
  /**
   * Called as the dialog closes: `enabled` once a code turned two-factor on (the player has
   * seen the recovery codes), false when they left before.
   */
  onClose: (enabled: boolean) => void;
  /** Called when the server answers that two-factor is on already (409), so the card catches up. */
  onAlreadyEnabled: () => void;
};

/**
 * Turning two-factor on, in one modal of three steps. First the current password ('Tiếp
 * tục'), without which the server hands out no secret: a wrong one is said under the field;
 * after too many (429) the field says for how many minutes and 'Tiếp tục' waits until then.
 * Then the secret: its QR code for the authenticator app, the secret itself to type in by hand,
 * and the app's six-digit code that confirms it ('Xác nhận'). A wrong code is said under the
 * field; after too many (429) the field says for how many minutes and 'Xác nhận' waits until
 * then. Then the ten recovery codes, shown only this once, to copy or download; 'Tôi đã lưu
 * mã' is the only way out, so they are not lost to a stray click or Escape. Mount it afresh (a
 * new `key`) for each enrolment.
 */
export function TwoFactorSetupDialog({ username, open, onClose, onAlreadyEnabled }: TwoFactorSetupDialogProps) {
  const start = useStartTwoFactor();
  const enrolment = start.data;
  const confirm = useConfirmTwoFactor();
  const recoveryCodes = confirm.data;

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onClose(!!recoveryCodes);
      }}
      lazyMount
      unmountOnExit
      placement="center"
      size="md"
      closeOnInteractOutside={false}
      closeOnEscape={!recoveryCodes}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {recoveryCodes ? (
              <RecoveryCodesStep username={username} codes={recoveryCodes} onDone={() => onClose(true)} />
            ) : (
              <>
                {enrolment ? (
                  <VerifyStep username={username} enrolment={enrolment} confirm={confirm} />
                ) : (
                  <PasswordStep username={username} start={start} onAlreadyEnabled={onAlreadyEnabled} />
                )}
                <Dialog.CloseTrigger asChild>
                  <CloseButton size="sm" aria-label={m['form.close']()} />
                </Dialog.CloseTrigger>
              </>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

type PasswordStepProps = {
  username: string;
  start: ReturnType<typeof useStartTwoFactor>;
  onAlreadyEnabled: () => void;
};

/** The current password, which the server asks for before it hands out a secret. */
function PasswordStep({ username, start, onAlreadyEnabled }: PasswordStepProps) {
  const [lock, setLock] = useThrottleLock();
  const {
    control,
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<StartTwoFactorInput>({
    mode: 'onTouched',
    resolver: zodResolver(startTwoFactorInputSchema),
    defaultValues: { password: '' },
  });
  const values = useWatch({ control }) as StartTwoFactorInput;
  const valid = startTwoFactorInputSchema.safeParse(values).success;

  const onSubmit = handleSubmit((input) => {
    if (lock) return;
    start.mutate(input, {
      onError: (error) => {
        const newLock = throttleLockOf(error);
        if (newLock) {
          setLock(newLock);
          setFocus('password');
          return;
        }
        // 409: it is on already (turned on in another tab, say); the card catches up.
        if (toApiError(error).status === 409) onAlreadyEnabled();
        placeServerErrors(error, PASSWORD_FIELDS, setError);
      },
    });
  });

  const passwordError = lock
    ? m['security.twoFactor.tooManyGuesses']({ minutes: lock.minutes })
    : errors.password?.message;
  // A 429 is said under the field; anything else the field does not show (409: two-factor is
  // on already), above it.
  const failure =
    start.error && toApiError(start.error).status !== 429 ? failureText(start.error, PASSWORD_FIELDS) : null;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Dialog.Header>
        <Dialog.Title>{m['security.twoFactor.setup.title']()}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">
          {failure && <FailureAlert title={m['security.twoFactor.setup.failed']()} text={failure} />}
          <Text fontSize="sm" color="fg.muted">
            {m['security.twoFactor.setup.passwordIntro']()}
          </Text>
          <CurrentPasswordField
            username={username}
            label={m['security.twoFactor.setup.password']()}
            error={passwordError}
            registration={register('password')}
            autoFocus
          />
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Dialog.ActionTrigger asChild>
          <Button type="button" variant="outline">
            {m['form.cancel']()}
          </Button>
        </Dialog.ActionTrigger>
        <Button type="submit" disabled={!valid || !!lock} loading={start.isPending}>
          {m['security.twoFactor.setup.continue']()}
        </Button>
      </Dialog.Footer>
    </form>
  );
}

type VerifyStepProps = {
  username: string;
  enrolment: Enrolment;
  confirm: ReturnType<typeof useConfirmTwoFactor>;
};

/** The QR code, the secret and the code field. */
function VerifyStep({ username, enrolment, confirm }: VerifyStepProps) {
  const [lock, setLock] = useThrottleLock();
  const { copied, copy } = useCopyToClipboard();
  const {
    control,
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<ConfirmTwoFactorInput>({
    mode: 'onTouched',
    resolver: zodResolver(confirmTwoFactorInputSchema),
    defaultValues: { code: '' },
  });
  const values = useWatch({ control }) as ConfirmTwoFactorInput;
  const valid = confirmTwoFactorInputSchema.safeParse(values).success;

  const onSubmit = handleSubmit((input) => {
    if (lock) return;
    confirm.mutate(input, {
      onError: (error) => {
        const newLock = throttleLockOf(error);
        if (newLock) {
          setLock(newLock);
          setFocus('code');
          return;
        }
        placeServerErrors(error, FIELDS, setError);
      },
    });
  });

  const codeError = lock ? m['security.twoFactor.tooManyAttempts']({ minutes: lock.minutes }) : errors.code?.message;
  // A 429 is said under the field; anything else the field does not show (409: the enrolment
  // was replaced elsewhere), above it.
  const failure = confirm.error && toApiError(confirm.error).status !== 429 ? failureText(confirm.error, FIELDS) : null;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Dialog.Header>
        <Dialog.Title>{m['security.twoFactor.setup.title']()}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">
          {failure && <FailureAlert title={m['security.twoFactor.setup.failed']()} text={failure} />}
          <Text fontSize="sm">{m['security.twoFactor.setup.scan']({ username })}</Text>
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
              title={m['security.twoFactor.setup.qr']({ username })}
            />
          </Box>
          <Stack gap="1.5">
            <Text fontSize="sm" color="fg.muted">
              {m['security.twoFactor.setup.manual']()}
            </Text>
            <Flex align="center" gap="2" wrap="wrap">
              <Code
                data-testid="totp-secret"
                size="lg"
                fontFamily="mono"
                letterSpacing="wider"
                overflowWrap="anywhere"
                wordBreak="break-all"
                userSelect="all"
              >
                {enrolment.secret}
              </Code>
              <Button type="button" size="xs" variant="outline" onClick={() => void copy(enrolment.secret)}>
                {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
                {m['security.twoFactor.setup.copySecret']()}
              </Button>
              <Text as="span" role="status" fontSize="xs" color="fg.success" fontWeight="medium">
                {copied ? m['security.twoFactor.copied']() : ''}
              </Text>
            </Flex>
          </Stack>
          <Text fontSize="sm">{m['security.twoFactor.setup.enterCode']()}</Text>
          <Field.Root required invalid={!!codeError}>
            <Field.Label>
              {m['security.twoFactor.code']()}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input
              {...register('code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              autoCorrect="off"
              spellCheck={false}
              fontFamily="mono"
              letterSpacing="widest"
              autoFocus
            />
            <Field.ErrorText>{codeError}</Field.ErrorText>
          </Field.Root>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Dialog.ActionTrigger asChild>
          <Button type="button" variant="outline">
            {m['form.cancel']()}
          </Button>
        </Dialog.ActionTrigger>
        <Button type="submit" disabled={!valid || !!lock} loading={confirm.isPending}>
          {m['security.twoFactor.setup.submit']()}
        </Button>
      </Dialog.Footer>
    </form>
  );
}

/** The file 'Tải xuống' saves: a line saying what the codes are, then one code a line. */
function recoveryFile(header: string, codes: readonly string[]) {
  return `data:text/plain;charset=utf-8,${encodeURIComponent(`${header}\n\n${codes.join('\n')}\n`)}`;
}

type RecoveryCodesStepProps = {
  username: string;
  codes: readonly string[];
  onDone: () => void;
};

/** The recovery codes, once: the warning, the list, 'Sao chép', 'Tải xuống' and 'Tôi đã lưu mã'. */
function RecoveryCodesStep({ username, codes, onDone }: RecoveryCodesStepProps) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <>
      <Dialog.Header>
        <Dialog.Title>{m['security.twoFactor.recovery.title']()}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">
          <Alert.Root status="warning" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{m['security.twoFactor.recovery.warningTitle']()}</Alert.Title>
              <Alert.Description>{m['security.twoFactor.recovery.warning']()}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <Box
            as="ul"
            aria-label={m['security.twoFactor.recovery.listLabel']()}
            listStyleType="none"
            display="grid"
            gridTemplateColumns={{ base: '1fr', sm: 'repeat(2, 1fr)' }}
            gap="2"
            p="4"
            bg="bg.muted"
            borderRadius="lg"
          >
            {codes.map((code) => (
              <Text
                as="li"
                key={code}
                data-testid="recovery-code"
                fontFamily="mono"
                fontSize="md"
                letterSpacing="wide"
                textAlign="center"
              >
                {code}
              </Text>
            ))}
          </Box>
          <Flex align="center" gap="2" wrap="wrap">
            <Button type="button" variant="outline" size="sm" onClick={() => void copy(codes.join('\n'))}>
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
              {m['security.twoFactor.recovery.copy']()}
            </Button>
            <Button asChild variant="outline" size="sm">
              <a
                href={recoveryFile(m['security.twoFactor.recovery.fileHeader']({ username }), codes)}
                download={`kid-${username}-recovery-codes.txt`}
              >
                <Download aria-hidden />
                {m['security.twoFactor.recovery.download']()}
              </a>
            </Button>
            <Text as="span" role="status" fontSize="xs" color="fg.success" fontWeight="medium">
              {copied ? m['security.twoFactor.copied']() : ''}
            </Text>
          </Flex>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button type="button" onClick={onDone}>
          {m['security.twoFactor.recovery.done']()}
        </Button>
      </Dialog.Footer>
    </>
  );
}
