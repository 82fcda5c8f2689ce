import type { TFunction } from 'i18next';

import type { Transaction } from '@/types/api-schema';

import { formatAmount } from './amount';

/**
 * A ledger entry in the console's words. The player's history (features/transactions) has its
 * own; the texts are the same keys of the player's locale file, which the console loads too.
 */
const TOP_UPS = {
  'topup.bank-transfer': 'bankTransfer',
  'topup.e-wallet': 'eWallet',
  'topup.card': 'card',
} as const;

const RELATED = {
  'credit.recharge': 'recharge',
  'credit.bonus': 'bonus',
  'credit.recall': 'recall',
  'credit.refund': 'refund',
} as const;

const STATUSES = ['pending', 'success', 'failed'] as const;
export const LEDGER_STATUS_PALETTE = { pending: 'orange', success: 'green', failed: 'red', unknown: 'gray' } as const;

const isClawback = (transaction: Transaction) =>
  transaction.type === 'adjustment' && transaction.payload.direction === 'clawback';

export function ledgerTypeText(t: TFunction, transaction: Transaction): string {
  const { type, payload } = transaction;
  if (Object.hasOwn(TOP_UPS, type)) return t(`transactions.all.filters.types.${TOP_UPS[type as keyof typeof TOP_UPS]}`);
  if (type === 'credit.pay') {
    const game = payload.metadata?.productName || payload.metadata?.productCode || '';
    return t('transactions.type.pay', { game }).trim();
  }
  if (type === 'giftcode') return t('transactions.type.giftcode');
  if (type === 'adjustment') return t(isClawback(transaction) ? 'transactions.type.clawback' : 'transactions.type.adjustment');
  return type;
}

/** VND for a top-up, KP with its sign for the rest. */
export function ledgerValueText(t: TFunction, transaction: Transaction): string {
  const { type, realValue, currency } = transaction;
  const value = formatAmount(Math.abs(realValue));
  if (type.startsWith('topup.')) return t('staff.players.ledger.vnd', { amount: value });
  if (type === 'credit.pay' || isClawback(transaction)) return t('transactions.value.spent', { value });
  if (type === 'giftcode' || type === 'adjustment') return t('transactions.value.received', { value });
  return t('transactions.value.other', { value: formatAmount(realValue), currency });
}

export function ledgerStatusText(t: TFunction, status: string): string {
  return (STATUSES as readonly string[]).includes(status)
    ? t(`transactions.status.${status as (typeof STATUSES)[number]}`)
    : t('transactions.status.unknown');
}

/** What else the entry says: coins bought, the channel and serial, an adjustment's reason, what it caused. */
export function ledgerDetails(t: TFunction, transaction: Transaction): string[] {
  const { type, payload } = transaction;
  const lines: string[] = [];
  const metadata = payload.metadata;
  if (type === 'credit.pay' && metadata) {
    const coinName = metadata.coinName || '';
    lines.push(t('transactions.details.coin', { coin: formatAmount(metadata.coin), coinName }));
    if (metadata.coinBonus > 0) {
      lines.push(t('transactions.details.coinBonus', { coin: formatAmount(metadata.coinBonus), coinName }));
    }
  }
  if (type.startsWith('topup.')) {
    const channel = payload.source ?? payload.provider;
    if (channel) lines.push(channel);
    if (payload.serial) lines.push(t('transactions.details.serial', { serial: payload.serial }));
    if (payload.errorCode) lines.push(payload.errorCode);
  }
  if (payload.reason?.trim()) lines.push(t('transactions.details.reason', { reason: payload.reason.trim() }));
  if (payload.campaign?.trim()) lines.push(t('transactions.details.campaign', { campaign: payload.campaign.trim() }));
  for (const related of transaction.relatedTransactions) {
    const kind = Object.hasOwn(RELATED, related.type) ? RELATED[related.type as keyof typeof RELATED] : null;
    if (kind) lines.push(t(`transactions.related.${kind}`, { value: formatAmount(Math.abs(related.realValue)) }));
  }
  return lines.map((line) => line.replace(/\s+/g, ' ').trim());
}
