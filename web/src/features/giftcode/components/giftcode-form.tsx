import { Alert, Button, Field, Input, Stack } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Gift } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { SuccessBanner } from '@/components/feedback/success-banner';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { toApiError } from '@/lib/api-client';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { failureText } from '@/lib/failure-text';
import { formatNumber } from '@/lib/format';
import { placeServerErrors } from '@/lib/server-errors';

import {
  giftcodeInputSchema,
  useRedeemGiftcode,
  type GiftcodeField,
  type GiftcodeInput,
} from '../api/redeem-giftcode';
import { lockOf, type GiftcodeLock } from '../utils/lock';

const FIELDS: readonly GiftcodeField[] = ['code'];

const EMPTY: GiftcodeInput = { code: '' };

/** The lock after too many wrong codes, lifted by itself once its time is up. */
function useLock() {
  const [lock, setLock] = useState<GiftcodeLock | null>(null);
  useEffect(() => {
    if (!lock) return;
    const timer = window.setTimeout(() => setLock(null), lock.seconds * 1000);
    return () => window.clearTimeout(timer);
  }, [lock]);
  return [lock, setLock] as const;
}

/**
 * The giftcode form: the code, then 'Nhận quà'. It sends the trimmed code with a captcha token
 * for giftcodeFormSubmit (nothing when the captcha gives none) and a new Idempotency-Key per
 * submit. A granted code clears the field and says what it brought; one still being processed
 * shows the server's message. The server's refusal of the code goes under the field, any other
 * refusal above the button. After too many wrong codes (429) the field says for how many
 * minutes, and the button stays disabled until the server's Retry-After has passed.
 */
export function GiftcodeForm() {
  const { t } = useTranslation();
  const captcha = useCaptchaToken('giftcodeFormSubmit');
  const redeem = useRedeemGiftcode();
  const [lock, setLock] = useLock();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors },
  } = useForm<GiftcodeInput>({
    resolver: zodResolver(giftcodeInputSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit(async (input) => {
    if (lock) return;
    const gReCaptchaToken = await captcha.getToken();
    if (!gReCaptchaToken) return;
    redeem.mutate(
      { ...input, gReCaptchaToken, idempotencyKey: crypto.randomUUID() },
      {
        onSuccess: (result) => {
          if (result.status === 'granted') reset(EMPTY);
        },
        onError: (error) => {
          const newLock = lockOf(error);
          if (newLock) {
            setLock(newLock);
            setFocus('code');
            return;
          }
          placeServerErrors(error, FIELDS, setError);
        },
      },
    );
  });

  const message = (error: FieldError | undefined): string | undefined => {
    if (!error?.message) return undefined;
    if (error.type === 'server') return error.message;
    return t(error.message as 'giftcode.validation.required');
  };
  const codeError = lock ? t('giftcode.tooManyAttempts', { minutes: lock.minutes }) : message(errors.code);
  // A 429 is said under the field; any other failure the field does not show, above the button.
  const failure = redeem.error && toApiError(redeem.error).status !== 429 ? failureText(redeem.error, FIELDS) : null;
  const result = redeem.isSuccess ? redeem.data : undefined;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="6">
        <Field.Root required invalid={!!codeError} maxW={{ md: 'md' }}>
          <Field.Label fontWeight="semibold" fontSize="md">
            {t('giftcode.code.label')}
          </Field.Label>
          <Input
            {...register('code')}
            placeholder={t('giftcode.code.placeholder')}
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="characters"
            spellCheck={false}
            fontFamily="mono"
            letterSpacing="wide"
          />
          <Field.ErrorText>{codeError}</Field.ErrorText>
        </Field.Root>

        {failure && <FailureAlert title={t('giftcode.failed')} text={failure} />}
        {result?.status === 'processing' && (
          <Alert.Root status="info" borderRadius="lg" role="status" overflowWrap="anywhere">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Description>{result.message}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {result?.status === 'granted' && (
          <SuccessBanner
            title={t('giftcode.success', { kp: formatNumber(result.kp), campaign: result.campaign })}
            onClose={() => redeem.reset()}
          />
        )}

        <Button
          type="submit"
          alignSelf={{ base: 'stretch', sm: 'flex-start' }}
          minW={{ sm: '40' }}
          loading={captcha.pending || redeem.isPending}
          disabled={!!lock}
        >
          <Gift size={18} aria-hidden />
          {t('giftcode.submit')}
        </Button>
      </Stack>
    </form>
  );
}
