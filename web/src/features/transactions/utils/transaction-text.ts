/** The texts of a transaction as the history shows them (spec section 2, "Transaction history"). */

import { formatNumber } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { RelatedTransaction, Transaction, TransactionPayload } from '@/types/api-schema';

const PAYMENT_CHANNELS = [
  'vietcombank',
  'techcombank',
  'momo',
  'viettelpay',
  'viettel',
  'vinaphone',
  'mobifone',
  'vietnamobile',
  'zing',
  'gate',
  'vtc',
  'garena',
] as const;
const GAMES = ['fsonline', 'jxonline2', 'jxsj2'] as const;
const CARD_ERRORS = ['WRONG_AMOUNT', 'NOT_FOUND', 'INVALID'] as const;
const RELATED = {
  'credit.recharge': 'recharge',
  'credit.bonus': 'bonus',
  'credit.recall': 'recall',
  'credit.refund': 'refund',
} as const;
export const STATUS_PALETTE = { pending: 'orange', success: 'green', failed: 'red' } as const;

const COIN_NAMES = {
  fsonline: m['games.coinName.fsonline'],
  jxonline2: m['games.coinName.jxonline2'],
  jxsj2: m['games.coinName.jxsj2'],
} satisfies Record<(typeof GAMES)[number], () => string>;

const CHANNEL_NAMES = {
  vietcombank: m['paymentChannels.vietcombank'],
  techcombank: m['paymentChannels.techcombank'],
  momo: m['paymentChannels.momo'],
  viettelpay: m['paymentChannels.viettelpay'],
  viettel: m['paymentChannels.viettel'],
  vinaphone: m['paymentChannels.vinaphone'],
  mobifone: m['paymentChannels.mobifone'],
  vietnamobile: m['paymentChannels.vietnamobile'],
  zing: m['paymentChannels.zing'],
  gate: m['paymentChannels.gate'],
  vtc: m['paymentChannels.vtc'],
  garena: m['paymentChannels.garena'],
} satisfies Record<(typeof PAYMENT_CHANNELS)[number], () => string>;

const RELATED_TEXT = {
  recharge: m['transactions.related.recharge'],
  bonus: m['transactions.related.bonus'],
  recall: m['transactions.related.recall'],
  refund: m['transactions.related.refund'],
} satisfies Record<(typeof RELATED)[keyof typeof RELATED], (inputs: { value: string }) => string>;

const CARD_ERROR_TEXT = {
  WRONG_AMOUNT: m['transactions.cardError.WRONG_AMOUNT'],
  NOT_FOUND: m['transactions.cardError.NOT_FOUND'],
  INVALID: m['transactions.cardError.INVALID'],
} satisfies Record<(typeof CARD_ERRORS)[number], () => string>;

/** The texts of the statuses STATUS_PALETTE knows. */
export const STATUS_TEXT = {
  pending: m['transactions.status.pending'],
  success: m['transactions.status.success'],
  failed: m['transactions.status.failed'],
} satisfies Record<keyof typeof STATUS_PALETTE, () => string>;

export const isOneOf = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

const isTopUp = (type: string) => type.startsWith('topup.');

/** KP a campaign's gift code granted (realValue, in KP); its payload names the campaign. */
const GIFTCODE = 'giftcode';
/** KP support credited (goodwill) or clawed back; realValue is the KP, its payload says which and why. */
const ADJUSTMENT = 'adjustment';
const isClawback = (transaction: Transaction) =>
  transaction.type === ADJUSTMENT && transaction.payload.direction === 'clawback';

/** Money that a row shows with an explicit sign; the sign comes from the text, not the data. */
const amount = (value: number) => formatNumber(Math.abs(value));

type Metadata = NonNullable<TransactionPayload['metadata']>;

/** The game's coin name: as the payment recorded it, else the known one for its product code. */
function coinName(metadata: Metadata): string {
  if (metadata.coinName) return metadata.coinName;
  const code = metadata.productCode;
  return code && isOneOf(GAMES, code) ? COIN_NAMES[code]() : '';
}

/** A bank, e-wallet or card provider by its display name; an unknown code as it came. */
function channelName(code: string): string {
  const known = code.toLowerCase();
  return isOneOf(PAYMENT_CHANNELS, known) ? CHANNEL_NAMES[known]() : code;
}

function relatedLine(related: RelatedTransaction): string | null {
  const kind = Object.hasOwn(RELATED, related.type) ? RELATED[related.type as keyof typeof RELATED] : null;
  return kind && RELATED_TEXT[kind]({ value: amount(related.realValue) });
}

function cardErrorLine(errorCode: string | null | undefined): string | null {
  const code = errorCode?.toUpperCase();
  return code && isOneOf(CARD_ERRORS, code) ? CARD_ERROR_TEXT[code]() : null;
}

export type DetailLine = { key: string; text: string; warning?: boolean };

export function detailLines(transaction: Transaction): DetailLine[] {
  const { type, payload } = transaction;
  const lines: DetailLine[] = [];

  if (type === 'credit.pay' && payload.metadata) {
    const { metadata } = payload;
    const name = coinName(metadata);
    if (typeof metadata.coin === 'number') {
      lines.push({
        key: 'coin',
        text: m['transactions.details.coin']({ coin: formatNumber(metadata.coin), coinName: name }),
      });
    }
    const bonus = metadata.coinBonus ?? 0;
    if (bonus > 0) {
      lines.push({
        key: 'coinBonus',
        text: m['transactions.details.coinBonus']({ coin: formatNumber(bonus), coinName: name }),
      });
    }
  }

  if (isTopUp(type)) {
    const channel = payload.source ?? payload.provider;
    if (channel) lines.push({ key: 'channel', text: channelName(channel) });
    if (payload.serial) {
      lines.push({ key: 'serial', text: m['transactions.details.serial']({ serial: payload.serial }) });
    }
    const error = cardErrorLine(payload.errorCode);
    if (error) lines.push({ key: 'error', text: error, warning: true });
  }

  if (type === ADJUSTMENT && payload.reason?.trim()) {
    lines.push({ key: 'reason', text: m['transactions.details.reason']({ reason: payload.reason.trim() }) });
  }

  if (type === GIFTCODE && payload.campaign?.trim()) {
    lines.push({ key: 'campaign', text: m['transactions.details.campaign']({ campaign: payload.campaign.trim() }) });
  }

  transaction.relatedTransactions.forEach((related, index) => {
    const text = relatedLine(related);
    if (text) lines.push({ key: `related-${related.id}-${index}`, text });
  });

  // Texts with a missing coin name or game keep no dangling spaces.
  return lines.map((line) => ({ ...line, text: line.text.replace(/\s+/g, ' ').trim() }));
}

export function typeLabel(transaction: Transaction): string {
  if (transaction.type === 'credit.pay') {
    const metadata = transaction.payload.metadata;
    const game = metadata?.productName || metadata?.productCode || '';
    return m['transactions.type.pay']({ game }).trim();
  }
  if (isTopUp(transaction.type)) return m['transactions.type.topUp']();
  if (transaction.type === GIFTCODE) return m['transactions.type.giftcode']();
  if (transaction.type === ADJUSTMENT) {
    return isClawback(transaction) ? m['transactions.type.clawback']() : m['transactions.type.adjustment']();
  }
  return m['transactions.type.unknown']();
}

export function valueText(transaction: Transaction): string {
  const { type, realValue, currency } = transaction;
  if (type === 'credit.pay') return m['transactions.value.spent']({ value: amount(realValue) });
  if (isTopUp(type)) return m['transactions.value.topUp']({ value: formatNumber(realValue) });
  if (isClawback(transaction)) return m['transactions.value.spent']({ value: amount(realValue) });
  if (type === GIFTCODE || type === ADJUSTMENT) return m['transactions.value.received']({ value: amount(realValue) });
  return m['transactions.value.other']({ value: formatNumber(realValue), currency });
}
