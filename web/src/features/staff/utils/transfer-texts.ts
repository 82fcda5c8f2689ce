import { m } from '@/paraglide/messages';

/** Why the feed matched nobody, as payment words it (app/bank_feed.rs), and its text. */
const REASON_TEXTS = {
  "no player's transfer content": m['staff.transfers.reasons.noPlayerContent'],
  'unknown bank or e-wallet': m['staff.transfers.reasons.unknownMethod'],
  'not one of our accounts': m['staff.transfers.reasons.notOurAccount'],
  'amount is not positive': m['staff.transfers.reasons.amountNotPositive'],
} satisfies Record<string, () => string>;

/** Why a transfer matched nobody, in Vietnamese; one the console has no text for, as sent. */
export function transferReasonText(reason: string): string {
  return Object.hasOwn(REASON_TEXTS, reason) ? REASON_TEXTS[reason as keyof typeof REASON_TEXTS]() : reason;
}

const WHYS = ['content_names_code', 'content_near_code', 'content_names_username'] as const;

const WHY_TEXTS = {
  content_names_code: m['staff.transfers.why.content_names_code'],
  content_near_code: m['staff.transfers.why.content_near_code'],
  content_names_username: m['staff.transfers.why.content_names_username'],
} satisfies Record<(typeof WHYS)[number], (inputs: { code: string }) => string>;

/** Why a player is suggested for a transfer, in Vietnamese; an unknown reason as sent. */
export function suggestionWhyText(why: string, code: string): string {
  return (WHYS as readonly string[]).includes(why) ? WHY_TEXTS[why as (typeof WHYS)[number]]({ code }) : why;
}
