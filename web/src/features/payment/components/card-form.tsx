import { zodResolver } from '@hookform/resolvers/zod';
import { Gamepad2, Smartphone } from 'lucide-react';
import { useMemo } from 'react';
import { Controller, useForm, useWatch, type FieldError } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { Box, Flex, Grid, Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { SuccessBanner } from '@/components/feedback/success-banner';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { RadioCard } from '@/components/ui/radio-card';
import { Text } from '@/components/ui/text';
import { CARD_PROCESSING_SECONDS } from '@/config/constants';
import { paths } from '@/config/paths';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';
import { formatNumber } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { CardFee, CardProvider, User } from '@/types/api-schema';

import { feeFor, useCardFees } from '../api/get-card-fees';
import {
  cardCodeLengths,
  cardRechargeInputSchema,
  useRechargeCard,
  type CardRechargeField,
  type CardRechargeInput,
} from '../api/recharge-card';
import { cardKp, partnerBonusKp } from '../utils/kp';
import { partnerBonusPercent } from '../utils/partner';

import { AmountTiles } from '@/components/form/amount-tiles';

const FIELDS: readonly CardRechargeField[] = ['provider', 'value', 'pin', 'serial'];

/** Phone carriers' codes are digits only: phones get a number pad for them. */
const PHONE_CARRIERS: readonly string[] = ['viettel', 'vinaphone', 'mobifone', 'vietnamobile'];

const EMPTY: CardRechargeInput = { provider: '', value: 0, pin: '', serial: '' };

function ErrorText({ children }: { children: string | undefined }) {
  if (!children) return null;
  return (
    <Text fontSize="xs" color="fg.error" mt="1.5">
      {children}
    </Text>
  );
}

type FaceValueProps = {
  provider: CardProvider;
  value: number;
  fees: readonly CardFee[] | undefined;
  bonusPercent: number;
};

/** A face value with the KP it brings after the fee, and the partner bonus on top. */
function FaceValue({ provider, value, fees, bonusPercent }: FaceValueProps) {
  const fee = feeFor(fees, provider.code, value);
  const kp = fee === undefined ? undefined : cardKp(value, fee, provider.exchangeRate);
  return (
    <RadioCard.Item value={String(value)}>
      <RadioCard.ItemHiddenInput />
      <RadioCard.ItemControl p="3">
        <RadioCard.ItemContent gap="0.5" fontVariantNumeric="tabular-nums">
          <RadioCard.ItemText fontWeight="semibold">
            {m['payment.card.faceValue']({ value: formatNumber(value) })}
          </RadioCard.ItemText>
          {kp !== undefined && fee !== undefined && (
            <RadioCard.ItemDescription display="flex" flexDirection="column" gap="0.5">
              <Text as="span" color="fg" fontWeight="medium">
                {m['payment.card.receive']({ kp: formatNumber(kp) })}
              </Text>
              {bonusPercent > 0 && (
                <Text as="span" color="blue.fg">
                  {m['payment.card.receiveBonus']({ bonus: formatNumber(partnerBonusKp(kp, bonusPercent)) })}
                </Text>
              )}
              <Text as="span" fontSize="xs">
                {m['payment.card.fee']({ percent: fee })}
              </Text>
            </RadioCard.ItemDescription>
          )}
        </RadioCard.ItemContent>
      </RadioCard.ItemControl>
    </RadioCard.Item>
  );
}

type CardFormProps = {
  providers: CardProvider[];
  user: User;
};

/**
 * The card form (spec sections 4 and 5): the brand, then its face values with the KP each
 * brings, then PIN and serial once both are chosen. A new brand clears the face value. It
 * sends a captcha token for cardRechargeFormSubmit, and does nothing when the captcha gives
 * none. Server messages for a field go beside it; any other refusal shows above the button.
 * Once sent, the face value and codes clear and the estimate shows with a link to the history.
 */
export function CardForm({ providers, user }: CardFormProps) {
  const schema = useMemo(() => cardRechargeInputSchema(providers), [providers]);
  const fees = useCardFees();
  const captcha = useCaptchaToken('cardRechargeFormSubmit');
  const recharge = useRechargeCard();
  const {
    control,
    register,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    reset,
    formState: { errors },
  } = useForm<CardRechargeInput>({
    mode: 'onTouched',
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });
  const [providerCode, value] = useWatch({ control, name: ['provider', 'value'] });
  const provider = providers.find((candidate) => candidate.code === providerCode);
  const lengths = cardCodeLengths(providerCode);
  const bonusPercent = partnerBonusPercent(user);
  const showCodes = !!provider?.enabled && value > 0;
  const numeric = PHONE_CARRIERS.includes(providerCode) ? 'numeric' : undefined;

  const onSubmit = handleSubmit(async (input) => {
    const gReCaptchaToken = await captcha.getToken();
    if (!gReCaptchaToken) return;
    recharge.mutate(
      { ...input, gReCaptchaToken },
      {
        onSuccess: () => reset({ ...EMPTY, provider: input.provider }),
        onError: (error) => placeServerErrors(error, FIELDS, setError),
      },
    );
  });

  // The schema's texts and the server's messages alike.
  const message = (error: FieldError | undefined): string | undefined => error?.message || undefined;
  const failure = failureText(recharge.error, FIELDS);
  const processing = captcha.pending || recharge.isPending;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="6">
        <Box>
          <Controller
            control={control}
            name="provider"
            render={({ field }) => (
              <RadioCard.Root
                name={field.name}
                value={field.value || null}
                onValueChange={({ value: code }) => {
                  field.onChange(code ?? '');
                  setValue('value', 0);
                  clearErrors(['value', 'pin', 'serial']);
                }}
                size="sm"
                variant="surface"
                colorPalette="brand"
                orientation="horizontal"
              >
                <RadioCard.Label fontWeight="semibold" fontSize="md" mb="2">
                  {m['payment.card.provider']()}
                </RadioCard.Label>
                <Grid columns={{ base: 2, sm: 4 }} gap="2">
                  {providers.map((candidate) => {
                    const Icon = PHONE_CARRIERS.includes(candidate.code) ? Smartphone : Gamepad2;
                    return (
                      <RadioCard.Item key={candidate.code} value={candidate.code} opacity={candidate.enabled ? 1 : 0.7}>
                        <RadioCard.ItemHiddenInput onBlur={field.onBlur} />
                        <RadioCard.ItemControl p="3" alignItems="center">
                          <Box color="fg.muted" flexShrink={0}>
                            <Icon size={18} aria-hidden />
                          </Box>
                          <RadioCard.ItemContent gap="0.5">
                            <RadioCard.ItemText fontWeight="semibold">{candidate.name}</RadioCard.ItemText>
                            {!candidate.enabled && (
                              <Badge size="xs" colorPalette="gray" variant="subtle">
                                {m['payment.card.suspended']()}
                              </Badge>
                            )}
                          </RadioCard.ItemContent>
                        </RadioCard.ItemControl>
                      </RadioCard.Item>
                    );
                  })}
                </Grid>
              </RadioCard.Root>
            )}
          />
          <ErrorText>{message(errors.provider)}</ErrorText>
        </Box>

        {provider && !provider.enabled && (
          <Alert.Root status="warning" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Title>{m['payment.card.unsupported']({ provider: provider.name })}</Alert.Title>
          </Alert.Root>
        )}

        {provider?.enabled && (
          <Box>
            <Controller
              control={control}
              name="value"
              render={({ field }) => (
                <AmountTiles
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  label={m['payment.card.value']()}
                >
                  {provider.payableValues.map((faceValue) => (
                    <FaceValue
                      key={faceValue}
                      provider={provider}
                      value={faceValue}
                      fees={fees.data}
                      bonusPercent={bonusPercent}
                    />
                  ))}
                </AmountTiles>
              )}
            />
            <ErrorText>{message(errors.value)}</ErrorText>
          </Box>
        )}

        {showCodes && (
          <Grid columns={{ base: 1, md: 2 }} gap="5">
            <Field.Root required invalid={!!errors.pin}>
              <Field.Label>
                {m['payment.card.pin']()}
                <Field.RequiredIndicator />
              </Field.Label>
              <Input
                {...register('pin')}
                autoComplete="off"
                autoCorrect="off"
                autoCapitalize="characters"
                spellCheck={false}
                inputMode={numeric}
                fontFamily="mono"
                letterSpacing="wide"
              />
              <Field.ErrorText>{message(errors.pin)}</Field.ErrorText>
              {lengths.pin > 0 && (
                <Field.HelperText>{m['payment.card.pinHelp']({ limit: lengths.pin })}</Field.HelperText>
              )}
            </Field.Root>
            <Field.Root required invalid={!!errors.serial}>
              <Field.Label>
                {m['payment.card.serial']()}
                <Field.RequiredIndicator />
              </Field.Label>
              <Input
                {...register('serial')}
                autoComplete="off"
                autoCorrect="off"
                autoCapitalize="characters"
                spellCheck={false}
                inputMode={numeric}
                fontFamily="mono"
                letterSpacing="wide"
              />
              <Field.ErrorText>{message(errors.serial)}</Field.ErrorText>
              {lengths.serial > 0 && (
                <Field.HelperText>{m['payment.card.serialHelp']({ limit: lengths.serial })}</Field.HelperText>
              )}
            </Field.Root>
          </Grid>
        )}

        {failure && <FailureAlert title={m['payment.card.failed']()} text={failure} />}
        {recharge.isSuccess && (
          <SuccessBanner title={m['payment.card.success.title']()} onClose={() => recharge.reset()}>
            <Flex direction="column" gap="1">
              <Text>{m['payment.card.success.text'](CARD_PROCESSING_SECONDS)}</Text>
              <Link asChild fontWeight="semibold" color="inherit" textDecoration="underline">
                <RouterLink to={paths.transactions}>{m['payment.card.success.history']()}</RouterLink>
              </Link>
            </Flex>
          </SuccessBanner>
        )}

        <Button
          type="submit"
          alignSelf={{ base: 'stretch', sm: 'flex-start' }}
          minW={{ sm: '40' }}
          loading={processing}
          disabled={!!provider && !provider.enabled}
        >
          {m['payment.card.submit']()}
        </Button>
      </Stack>
    </form>
  );
}
