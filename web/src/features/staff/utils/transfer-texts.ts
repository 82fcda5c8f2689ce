import type { TFunction } from 'i18next';

/** Why the feed matched nobody, as payment words it (app/bank_feed.rs), and its text. */
const REASON_TEXTS = {
  "no player's transfer content": 'noPlayerContent',
  'unknown bank or e-wallet': 'unknownMethod',
  'not one of our accounts': 'notOurAccount',
  'amount is not positive': 'amountNotPositive',
} as const;

/** Why a transfer matched nobody, in Vietnamese; one the console has no text for, as sent. */
export function transferReasonText(t: TFunction, reason: string): string {
  const key = (REASON_TEXTS as Record<string, (typeof REASON_TEXTS)[keyof typeof REASON_TEXTS]>)[reason];
  return key ? t(`staff.transfers.reasons.${key}`) : reason;
}

const WHYS = ['content_names_code', 'content_near_code', 'content_names_username'] as const;

/** Why a player is suggested for a transfer, in Vietnamese; an unknown reason as sent. */
export function suggestionWhyText(t: TFunction, why: string, code: string): string {
  return (WHYS as readonly string[]).includes(why)
    ? t(`staff.transfers.why.${why as (typeof WHYS)[number]}`, { code })
    : why;
}
