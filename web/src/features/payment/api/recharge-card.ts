import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { CARD_VALUE_MAX, CARD_VALUE_MIN } from '@/config/constants';
import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import { m } from '@/paraglide/messages';
import type { CardProvider, CardSent } from '@/types/api-schema';

export type CardCodeLengths = { pin: number; serial: number };

/** The exact PIN and serial length of each brand's cards (spec section 5, "Card form"). */
export const CARD_CODE_LENGTHS = {
  viettel: { pin: 15, serial: 14 },
  vinaphone: { pin: 14, serial: 14 },
  mobifone: { pin: 12, serial: 15 },
  vietnamobile: { pin: 12, serial: 11 },
  zing: { pin: 9, serial: 12 },
  gate: { pin: 10, serial: 10 },
  vtc: { pin: 12, serial: 12 },
  garena: { pin: 16, serial: 9 },
} as const satisfies Record<CardProvider['code'], CardCodeLengths>;

/** The brands the portal knows by code (spec section 3); the server may list others. */
type CardProviderCode = keyof typeof CARD_CODE_LENGTHS;

/**
 * A brand's lengths; 0 and 0 for a brand the portal does not know (the spec's "unknown" row),
 * whose lengths the server alone checks.
 */
export function cardCodeLengths(provider: string): CardCodeLengths {
  const code = provider.toLowerCase();
  return Object.hasOwn(CARD_CODE_LENGTHS, code) ? CARD_CODE_LENGTHS[code as CardProviderCode] : { pin: 0, serial: 0 };
}

/** Players copy codes from the card in groups; the spaces between them are not part of it. */
export const normaliseCardCode = (value: string) => value.replace(/\s+/g, '');

/** Whether `value` is one of the brand's face values and within the range the portal takes. */
export const isPayableValue = (provider: CardProvider, value: number) =>
  Number.isInteger(value) &&
  value >= CARD_VALUE_MIN &&
  value <= CARD_VALUE_MAX &&
  provider.payableValues.includes(value);

const CARD_CODE = /^[A-Za-z0-9]+$/;

type CardCodeField = 'pin' | 'serial';

/** The messages about a PIN or a serial: none typed, or not of the brand's length. */
const CODE_MESSAGES = {
  pin: {
    required: m['payment.card.validation.pinRequired'],
    length: m['payment.card.validation.pinLength'],
  },
  serial: {
    required: m['payment.card.validation.serialRequired'],
    length: m['payment.card.validation.serialLength'],
  },
} satisfies Record<CardCodeField, { required: () => string; length: (inputs: { limit: number }) => string }>;

/**
 * The card form (spec section 5): a brand the portal takes, one of its face values, and a PIN
 * and serial of exactly the brand's lengths, letters and digits only, as the server checks
 * them. Messages are the texts shown, with the chosen brand's name and lengths.
 */
export function cardRechargeInputSchema(providers: readonly CardProvider[]) {
  return z
    .object({
      provider: z.string(),
      value: z.number(),
      pin: z.string().transform(normaliseCardCode),
      serial: z.string().transform(normaliseCardCode),
    })
    .superRefine((input, context) => {
      const issue = (path: 'provider' | 'value' | 'pin' | 'serial', message: string) =>
        context.addIssue({ code: 'custom', message, path: [path] });
      const provider = providers.find((candidate) => candidate.code === input.provider);
      if (!provider) return issue('provider', m['payment.card.validation.providerRequired']());
      if (!provider.enabled) return issue('provider', m['payment.card.unsupported']({ provider: provider.name }));
      if (!isPayableValue(provider, input.value)) return issue('value', m['payment.card.validation.valueRequired']());
      const lengths = cardCodeLengths(provider.code);
      const checkCode = (field: CardCodeField, code: string, limit: number) => {
        if (!code) issue(field, CODE_MESSAGES[field].required());
        else if (limit > 0 && ([...code].length !== limit || !CARD_CODE.test(code))) {
          issue(field, CODE_MESSAGES[field].length({ limit }));
        }
      };
      checkCode('pin', input.pin, lengths.pin);
      checkCode('serial', input.serial, lengths.serial);
    });
}

export type CardRechargeInput = z.input<ReturnType<typeof cardRechargeInputSchema>>;
export type CardRechargeField = keyof CardRechargeInput;
export type CardRechargeRequest = CardRechargeInput & { gReCaptchaToken: string };

/**
 * POST /payment/card-recharge: 202 once the card is on its way to the aggregator, whose answer
 * comes later (the history shows the card pending until then); 422 with errors.provider,
 * errors.value, errors.pin, errors.serial or errors.gReCaptchaToken; 409 while the same card
 * is still being processed.
 */
export async function rechargeCard(request: CardRechargeRequest): Promise<CardSent> {
  const body = { ...request, pin: normaliseCardCode(request.pin), serial: normaliseCardCode(request.serial) };
  await getCsrfCookie();
  return dataOf(await api.POST('/payment/card-recharge', { body }));
}

/** A sent card appears in the history at once, pending; the balance changes once it is processed. */
export function useRechargeCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rechargeCard,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: TRANSACTION_HISTORY_QUERY_KEY });
    },
  });
}
