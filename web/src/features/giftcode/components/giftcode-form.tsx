import { zodResolver } from '@hookform/resolvers/zod';
import { Gift } from 'lucide-react';
import { useEffect, useState, type ChangeEvent } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { SuccessBanner } from '@/components/feedback/success-banner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { toApiError } from '@/lib/api-client';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { failureText } from '@/lib/failure-text';
import { formatNumber } from '@/lib/format';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';

import { giftcodeInputSchema, useRedeemGiftcode, type GiftcodeField, type GiftcodeInput } from '../api/redeem-giftcode';
import { lockOf, type GiftcodeLock } from '../utils/lock';
import { sameCode, zoneProductOf } from '../utils/zone-request';

import { GiftZoneField } from './gift-zone-field';
import { ItemGiftResult } from './item-gift-result';

const FIELDS: readonly GiftcodeField[] = ['code', 'zoneId'];
/** While no zone is asked for, a zone message has no field to go beside. */
const CODE_ONLY: readonly GiftcodeField[] = ['code'];

const EMPTY: GiftcodeInput = { code: '', zoneId: 0 };

/** The server asked for a zone of `productCode`'s game for the code `code` (as then typed). */
type ZoneRequest = { productCode: string; code: string };

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
 *
 * A code of in-game items needs a zone of its game: the server says so (422, errors.zoneId with
 * the game's productCode), and a zone picker for that game appears below the code, which stays;
 * the next submit sends the chosen zone. The zone's own refusals (unknown, no character there)
 * go under the picker. Editing the code into another one drops the picker: the next code may be
 * one of KP. Items sent to the game are followed until they arrive (ItemGiftResult); then the
 * form clears, as after KP.
 */
export function GiftcodeForm() {
  const captcha = useCaptchaToken('giftcodeFormSubmit');
  const redeem = useRedeemGiftcode();
  const [lock, setLock] = useLock();
  const [zoneRequest, setZoneRequest] = useState<ZoneRequest | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    setFocus,
    setValue,
    getValues,
    clearErrors,
    reset,
    formState: { errors },
  } = useForm<GiftcodeInput>({
    resolver: zodResolver(giftcodeInputSchema),
    defaultValues: EMPTY,
  });

  // Each request for a zone puts the player on the picker, the first one as soon as it appears.
  useEffect(() => {
    if (zoneRequest) setFocus('zoneId');
  }, [zoneRequest, setFocus]);

  /** After a gift arrived: nothing of it stays in the form. */
  const clear = () => {
    reset(EMPTY);
    setZoneRequest(null);
  };

  /** Items arrive a while after the submit: a code typed since then is the player's next one. */
  const clearUnlessRetyped = (code: string) => {
    if (sameCode(getValues('code'), code)) clear();
  };

  const codeField = register('code', {
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      // The picker was for the code the server saw; another code may not need one.
      if (!zoneRequest || sameCode(zoneRequest.code, event.target.value)) return;
      setZoneRequest(null);
      setValue('zoneId', 0);
      clearErrors('zoneId');
    },
  });

  const onSubmit = handleSubmit(async (input) => {
    if (lock) return;
    if (zoneRequest && input.zoneId <= 0) {
      setError('zoneId', { type: 'required', message: m['giftcode.validation.zoneRequired']() }, { shouldFocus: true });
      return;
    }
    const gReCaptchaToken = await captcha.getToken();
    if (!gReCaptchaToken) return;
    redeem.mutate(
      {
        code: input.code,
        zoneId: zoneRequest ? input.zoneId : 0,
        gReCaptchaToken,
        idempotencyKey: crypto.randomUUID(),
      },
      {
        onSuccess: (result) => {
          if (result.status === 'granted' || result.status === 'delivered') clear();
        },
        onError: (error) => {
          const newLock = lockOf(error);
          if (newLock) {
            setLock(newLock);
            setFocus('code');
            return;
          }
          const productCode = zoneProductOf(error);
          if (productCode) setZoneRequest({ productCode, code: input.code });
          placeServerErrors(error, (productCode ?? zoneRequest) ? FIELDS : CODE_ONLY, setError);
        },
      },
    );
  });

  // The schema's texts and the server's messages alike.
  const message = (error: FieldError | undefined): string | undefined => error?.message || undefined;
  const codeError = lock ? m['giftcode.tooManyAttempts']({ minutes: lock.minutes }) : message(errors.code);
  // A 429 is said under the field; any other failure the fields do not show, above the button.
  // A request for a zone is the picker's, even once a changed code dropped it.
  const failure =
    redeem.error && toApiError(redeem.error).status !== 429
      ? failureText(redeem.error, (zoneRequest ?? zoneProductOf(redeem.error)) ? FIELDS : CODE_ONLY)
      : null;
  const result = redeem.isSuccess ? redeem.data : undefined;
  const itemGift = result && redeem.variables && ['sent', 'delivered', 'failed'].includes(result.status);

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="6">
        <Field.Root required invalid={!!codeError} maxW={{ md: 'md' }}>
          <Field.Label fontWeight="semibold" fontSize="md">
            {m['giftcode.code.label']()}
          </Field.Label>
          <Input
            {...codeField}
            placeholder={m['giftcode.code.placeholder']()}
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="characters"
            spellCheck={false}
            fontFamily="mono"
            letterSpacing="wide"
          />
          <Field.ErrorText>{codeError}</Field.ErrorText>
        </Field.Root>

        {zoneRequest && (
          <GiftZoneField productCode={zoneRequest.productCode} control={control} error={message(errors.zoneId)} />
        )}

        {failure && <FailureAlert title={m['giftcode.failed']()} text={failure} />}
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
            title={m['giftcode.success']({ kp: formatNumber(result.kp), campaign: result.campaign })}
            onClose={() => redeem.reset()}
          />
        )}
        {itemGift && (
          // A new follower per redemption: the next one starts from its own first answer.
          <ItemGiftResult
            key={redeem.variables.idempotencyKey}
            request={redeem.variables}
            answer={result}
            onDelivered={() => clearUnlessRetyped(redeem.variables.code)}
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
          {m['giftcode.submit']()}
        </Button>
      </Stack>
    </form>
  );
}
