/** The texts of a transaction as the history shows them (spec section 2, "Transaction history"). */

import type { TFunction } from 'i18next';

import { formatNumber } from '@/lib/format';
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
function coinName(t: TFunction, metadata: Metadata): string {
  if (metadata.coinName) return metadata.coinName;
  const code = metadata.productCode;
  return code && isOneOf(GAMES, code) ? t(`games.coinName.${code}`) : '';
}

/** A bank, e-wallet or card provider by its display name; an unknown code as it came. */
function channelName(t: TFunction, code: string): string {
  const known = code.toLowerCase();
  return isOneOf(PAYMENT_CHANNELS, known) ? t(`paymentChannels.${known}`) : code;
}

function relatedLine(t: TFunction, related: RelatedTransaction): string | null {
  const kind = Object.hasOwn(RELATED, related.type) ? RELATED[related.type as keyof typeof RELATED] : null;
  return kind && t(`transactions.related.${kind}`, { value: amount(related.realValue) });
}

function cardErrorLine(t: TFunction, errorCode: string | null | undefined): string | null {
  const code = errorCode?.toUpperCase();
  return code && isOneOf(CARD_ERRORS, code) ? t(`transactions.cardError.${code}`) : null;
}

export type DetailLine = { key: string; text: string; warning?: boolean };

export function detailLines(t: TFunction, transaction: Transaction): DetailLine[] {
  const { type, payload } = transaction;
  const lines: DetailLine[] = [];

  if (type === 'credit.pay' && payload.metadata) {
    const { metadata } = payload;
    const name = coinName(t, metadata);
    if (typeof metadata.coin === 'number') {
      lines.push({
        key: 'coin',
        text: t('transactions.details.coin', { coin: formatNumber(metadata.coin), coinName: name }),
      });
    }
    const bonus = metadata.coinBonus ?? 0;
    if (bonus > 0) {
      lines.push({
        key: 'coinBonus',
        text: t('transactions.details.coinBonus', { coin: formatNumber(bonus), coinName: name }),
      });
    }
  }

  if (isTopUp(type)) {
    const channel = payload.source ?? payload.provider;
    if (channel) lines.push({ key: 'channel', text: channelName(t, channel) });
    if (payload.serial) {
      lines.push({ key: 'serial', text: t('transactions.details.serial', { serial: payload.serial }) });
    }
    const error = cardErrorLine(t, payload.errorCode);
    if (error) lines.push({ key: 'error', text: error, warning: true });
  }

  if (type === ADJUSTMENT && payload.reason?.trim()) {
    lines.push({ key: 'reason', text: t('transactions.details.reason', { reason: payload.reason.trim() }) });
  }

  if (type === GIFTCODE && payload.campaign?.trim()) {
    lines.push({ key: 'campaign', text: t('transactions.details.campaign', { campaign: payload.campaign.trim() }) });
  }

  transaction.relatedTransactions.forEach((related, index) => {
    const text = relatedLine(t, related);
    if (text) lines.push({ key: `related-${related.id}-${index}`, text });
  });

  // Texts with a missing coin name or game keep no dangling spaces.
  return lines.map((line) => ({ ...line, text: line.text.replace(/\s+/g, ' ').trim() }));
}

export function typeLabel(t: TFunction, transaction: Transaction): string {
  if (transaction.type === 'credit.pay') {
    const metadata = transaction.payload.metadata;
    const game = metadata?.productName || metadata?.productCode || '';
    return t('transactions.type.pay', { game }).trim();
  }
  if (isTopUp(transaction.type)) return t('transactions.type.topUp');
  if (transaction.type === GIFTCODE) return t('transactions.type.giftcode');
  if (transaction.type === ADJUSTMENT) {
    return t(isClawback(transaction) ? 'transactions.type.clawback' : 'transactions.type.adjustment');
  }
  return t('transactions.type.unknown');
}

export function valueText(t: TFunction, transaction: Transaction): string {
  const { type, realValue, currency } = transaction;
  if (type === 'credit.pay') return t('transactions.value.spent', { value: amount(realValue) });
  if (isTopUp(type)) return t('transactions.value.topUp', { value: formatNumber(realValue) });
  if (isClawback(transaction)) return t('transactions.value.spent', { value: amount(realValue) });
  if (type === GIFTCODE || type === ADJUSTMENT) return t('transactions.value.received', { value: amount(realValue) });
  return t('transactions.value.other', { value: formatNumber(realValue), currency });
}
