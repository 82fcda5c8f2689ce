import { formatDateTime, formatNumber } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { Transaction } from '@/types/api-schema';

/**
 * A transaction as the ticket form offers it: what it was, its amount and when, in the words
 * of the history (the `transactions.` texts and the rules of
 * features/transactions/utils/transaction-text.ts, repeated here: features do not import each
 * other, and a module shared with the history would be a chunk of its own, named in the route
 * table that every page loads).
 */
export function transactionOption(transaction: Transaction): string {
  const { type, realValue, currency, payload } = transaction;
  const amount = formatNumber(Math.abs(realValue));
  let kind: string;
  let value: string;
  if (type === 'credit.pay') {
    const game = payload.metadata?.productName || payload.metadata?.productCode || '';
    kind = m['transactions.type.pay']({ game }).trim();
    value = m['transactions.value.spent']({ value: amount });
  } else if (type.startsWith('topup.')) {
    kind = m['transactions.type.topUp']();
    value = m['transactions.value.topUp']({ value: formatNumber(realValue) });
  } else if (type === 'giftcode') {
    kind = m['transactions.type.giftcode']();
    value = m['transactions.value.received']({ value: amount });
  } else if (type === 'adjustment') {
    const clawback = payload.direction === 'clawback';
    kind = clawback ? m['transactions.type.clawback']() : m['transactions.type.adjustment']();
    value = (clawback ? m['transactions.value.spent'] : m['transactions.value.received'])({ value: amount });
  } else {
    kind = m['transactions.type.unknown']();
    value = m['transactions.value.other']({ value: formatNumber(realValue), currency });
  }
  const at = transaction.updatedAt ?? transaction.createdAt;
  if (!at) return `${kind} · ${value}`;
  return m['support.newTicket.transactionOption']({ type: kind, value, time: formatDateTime(at) });
}
