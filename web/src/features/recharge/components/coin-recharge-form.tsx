import { zodResolver } from '@hookform/resolvers/zod';
import { TriangleAlert, UserRoundCheck } from 'lucide-react';
import { Controller, useForm, useWatch, type FieldError } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { Box, HStack, Stack } from 'styled-system/jsx';

import { AmountTiles } from '@/components/form/amount-tiles';
import { ZoneSelect } from '@/components/form/zone-select';
import { FailureAlert } from '@/components/feedback/failure-alert';
import { SuccessBanner } from '@/components/feedback/success-banner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Link } from '@/components/ui/link';
import { RadioCard } from '@/components/ui/radio-card';
import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { formatNumber } from '@/lib/format';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';
import type { LocalizedString } from '@/paraglide/runtime';
import type { CoinOrder, PayableValue, RechargeInfo, User } from '@/types/api-schema';

import { useCharacter } from '../api/get-character';
import {
  coinRechargeInputSchema,
  useRechargeCoin,
  type CoinRechargeField,
  type CoinRechargeInput,
} from '../api/recharge-coin';
import { characterState, type CharacterState } from '../utils/character';
import { coinRechargeFailureText } from '../utils/failure';

const FIELDS: readonly CoinRechargeField[] = ['zoneId', 'creditAmount'];

const EMPTY: CoinRechargeInput = { zoneId: 0, creditAmount: 0 };

function ErrorText({ children }: { children: string | undefined }) {
  if (!children) return null;
  return (
    <Text fontSize="xs" color="fg.error" mt="1.5">
      {children}
    </Text>
  );
}

/**
 * Below the server picker: the character the coin would go to, for the player to confirm, or
 * that the check is under way, or that the game could not be asked (the order may still go).
 * That there is no character there is the field's error, not this.
 */
function CharacterNote({ state, coinName }: { state: CharacterState; coinName: string }) {
  if (state.kind === 'checking') {
    return (
      <HStack gap="2" color="fg.muted">
        <Spinner size="xs" />
        <Text>{m['recharge.character.checking']()}</Text>
      </HStack>
    );
  }
  if (state.kind === 'found') {
    return (
      <Stack gap="0.5">
        <HStack gap="1.5" color="fg.success" fontWeight="semibold" fontSize="sm">
          <UserRoundCheck size={16} aria-hidden />
          <Text overflowWrap="anywhere">{m['recharge.character.name']({ name: state.name })}</Text>
        </HStack>
        <Text>{m['recharge.character.hint']({ coinName })}</Text>
      </Stack>
    );
  }
  if (state.kind === 'unchecked') {
    return (
      <HStack gap="1.5" color="fg.warning" alignItems="flex-start">
        <Box as="span" mt="0.5" flexShrink={0}>
          <TriangleAlert size={14} aria-hidden />
        </Box>
        <Text>{state.message}</Text>
      </HStack>
    );
  }
  return null;
}

/** An amount tile: the coin it brings, and its KP cost or, above the balance, what is missing. */
function AmountTile({ value, coinName, affordable }: { value: PayableValue; coinName: string; affordable: boolean }) {
  const credit = formatNumber(value.credit);
  return (
    <RadioCard.Item value={String(value.credit)} disabled={!affordable}>
      <RadioCard.ItemHiddenInput />
      <RadioCard.ItemControl p="3">
        <RadioCard.ItemContent gap="0.5" fontVariantNumeric="tabular-nums">
          <RadioCard.ItemText fontWeight="semibold" fontSize="md">
            {m['recharge.amount.coins']({ coins: formatNumber(value.coinsReceived), coinName })}
          </RadioCard.ItemText>
          <RadioCard.ItemDescription display="flex" flexDirection="column" gap="0.5">
            {value.coinsBonus > 0 && (
              <Text as="span" color="blue.fg" fontWeight="medium">
                {m['recharge.amount.bonus']({ coins: formatNumber(value.coinsBonus), coinName })}
              </Text>
            )}
            <Text as="span" color={affordable ? 'fg' : 'fg.error'}>
              {affordable ? m['recharge.amount.cost']({ credit }) : m['recharge.amount.insufficient']({ credit })}
            </Text>
          </RadioCard.ItemDescription>
        </RadioCard.ItemContent>
      </RadioCard.ItemControl>
    </RadioCard.Item>
  );
}

/** What was credited where, the bonuses, and that the character must log in again. */
function RechargeSuccess({ result, onClose }: { result: CoinOrder; onClose: () => void }) {
  const { coinName } = result;
  const lines = [
    result.eventBonus > 0 && m['recharge.success.eventBonus']({ value: formatNumber(result.eventBonus), coinName }),
    result.milestoneBonus > 0 &&
      m['recharge.success.milestoneBonus']({ value: formatNumber(result.milestoneBonus), coinName }),
    result.lotteryPoints > 0 && m['recharge.success.lotteryPoints']({ value: formatNumber(result.lotteryPoints) }),
    m['recharge.success.relogin']({ coinName }),
  ].filter((line): line is LocalizedString => !!line);
  return (
    <SuccessBanner
      title={m['recharge.success.coins']({
        coins: formatNumber(result.coins),
        coinName,
        zone: result.zoneDescription,
      })}
      onClose={onClose}
    >
      <Stack gap="0.5">
        {lines.map((line) => (
          <Text key={line}>{line}</Text>
        ))}
      </Stack>
    </SuccessBanner>
  );
}

type CoinRechargeFormProps = {
  product: RechargeInfo;
  user: User;
};

/**
 * The coin top-up form (spec sections 4 and 5): a server, then an amount tile the balance
 * covers, then 'Nạp', enabled only with both chosen and KP to spend. It sends a captcha token
 * for coinRechargeFormSubmit (nothing when the captcha gives none) and a new Idempotency-Key per
 * click. Server messages for a field go beside it, any other refusal above the button. Once
 * done, the selection clears, server and amount (spec section 4), and the message says what was
 * credited. The screen mounts a new form for another game (`key`), so no server carries over.
 */
export function CoinRechargeForm({ product, user }: CoinRechargeFormProps) {
  const captcha = useCaptchaToken('coinRechargeFormSubmit');
  const recharge = useRechargeCoin();
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<CoinRechargeInput>({
    resolver: zodResolver(coinRechargeInputSchema),
    defaultValues: EMPTY,
  });
  const [zoneId, creditAmount] = useWatch({ control, name: ['zoneId', 'creditAmount'] });
  const character = characterState(zoneId, useCharacter(product.code, zoneId));
  const affordable = (value: PayableValue) => value.credit <= user.credit;
  const anyAffordable = product.payableValues.some(affordable);
  // No character on the server: the order would be refused. A check that could not be made
  // leaves the decision to the server.
  const canSubmit =
    zoneId > 0 && creditAmount > 0 && user.credit > 0 && creditAmount <= user.credit && character.kind !== 'missing';

  const onSubmit = handleSubmit(async (input) => {
    const gReCaptchaToken = await captcha.getToken();
    if (!gReCaptchaToken) return;
    recharge.mutate(
      { ...input, productCode: product.code, gReCaptchaToken, idempotencyKey: crypto.randomUUID() },
      {
        onSuccess: () => reset(EMPTY),
        onError: (error) => placeServerErrors(error, FIELDS, setError),
      },
    );
  });

  // The schema's texts and the server's messages alike.
  const message = (error: FieldError | undefined): string | undefined => error?.message || undefined;
  const failure = coinRechargeFailureText(recharge.error, FIELDS);
  const processing = isSubmitting || captcha.pending || recharge.isPending;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="6">
        <Controller
          control={control}
          name="zoneId"
          render={({ field }) => (
            <Field.Root required invalid={!!errors.zoneId || character.kind === 'missing'} maxW={{ md: 'sm' }}>
              <Field.Label fontWeight="semibold" fontSize="md">
                {m['recharge.zone.label']()}
              </Field.Label>
              <ZoneSelect
                ref={field.ref}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                zones={product.zones}
                placeholder={m['recharge.zone.placeholder']()}
              />
              {/* A refused order's message for the server first; else what the check found. */}
              <Field.ErrorText>
                {message(errors.zoneId) ?? (character.kind === 'missing' ? character.message : undefined)}
              </Field.ErrorText>
              {!errors.zoneId && (
                <Field.HelperText aria-live="polite" mt="1.5">
                  <CharacterNote state={character} coinName={product.coinName} />
                </Field.HelperText>
              )}
            </Field.Root>
          )}
        />

        <Box>
          <Controller
            control={control}
            name="creditAmount"
            render={({ field }) => (
              <AmountTiles
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                label={m['recharge.amount.label']()}
              >
                {product.payableValues.map((value) => (
                  <AmountTile
                    key={value.credit}
                    value={value}
                    coinName={product.coinName}
                    affordable={affordable(value)}
                  />
                ))}
              </AmountTiles>
            )}
          />
          <ErrorText>{message(errors.creditAmount)}</ErrorText>
          {!anyAffordable && product.payableValues.length > 0 && (
            <Text fontSize="sm" color="fg.muted" mt="3">
              {m['recharge.noAffordable']()}{' '}
              <Link asChild color="brand.fg" fontWeight="semibold">
                <RouterLink to={paths.payment}>{m['balance.topUp']()}</RouterLink>
              </Link>
            </Text>
          )}
        </Box>

        {failure && <FailureAlert title={m['recharge.failed']()} text={failure} />}
        {recharge.isSuccess && recharge.data.status === 'processing' && (
          <Alert.Root status="warning" borderRadius="lg" role="status">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Description>{recharge.data.message}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {recharge.isSuccess && recharge.data.status !== 'processing' && (
          <RechargeSuccess result={recharge.data} onClose={() => recharge.reset()} />
        )}

        <Button
          type="submit"
          alignSelf={{ base: 'stretch', sm: 'flex-start' }}
          minW={{ sm: '40' }}
          loading={processing}
          disabled={!canSubmit}
        >
          {m['recharge.submit']()}
        </Button>
      </Stack>
    </form>
  );
}
