import type { TFunction } from 'i18next';

import { formatDateTime, formatNumber } from '@/lib/format';
import type { Transaction } from '@/types/api-schema';

/**
 * A transaction as the ticket form offers it: what it was, its amount and when, in the words
 * of the history (the `transactions.` texts and the rules of
 * features/transactions/utils/transaction-text.ts, repeated here: features do not import each
 * other, and a module shared with the history would be a chunk of its own, named in the route
 * table that every page loads).
 */
export function transactionOption(t: TFunction, transaction: Transaction): string {
  const { type, realValue, currency, payload } = transaction;
  const amount = formatNumber(Math.abs(realValue));
  let kind: string;
  let value: string;
  if (type === 'credit.pay') {
    const game = payload.metadata?.productName || payload.metadata?.productCode || '';
    kind = t('transactions.type.pay', { game }).trim();
    value = t('transactions.value.spent', { value: amount });
  } else if (type.startsWith('topup.')) {
    kind = t('transactions.type.topUp');
    value = t('transactions.value.topUp', { value: formatNumber(realValue) });
  } else if (type === 'giftcode') {
    kind = t('transactions.type.giftcode');
    value = t('transactions.value.received', { value: amount });
  } else if (type === 'adjustment') {
    const clawback = payload.direction === 'clawback';
    kind = t(clawback ? 'transactions.type.clawback' : 'transactions.type.adjustment');
    value = t(clawback ? 'transactions.value.spent' : 'transactions.value.received', { value: amount });
  } else {
    kind = t('transactions.type.unknown');
    value = t('transactions.value.other', { value: formatNumber(realValue), currency });
  }
  const at = transaction.updatedAt ?? transaction.createdAt;
  if (!at) return `${kind} · ${value}`;
  return t('support.newTicket.transactionOption', { type: kind, value, time: formatDateTime(at) });
}
