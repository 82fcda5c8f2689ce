import { m } from '@/paraglide/messages';
import type { Transaction } from '@/types/api-schema';

import { formatAmount } from './amount';

/**
 * A ledger entry in the console's words. The player's history (features/transactions) has its
 * own; the texts are the same messages as the player's.
 */
const TOP_UPS = {
  'topup.bank-transfer': m['transactions.all.filters.types.bankTransfer'],
  'topup.e-wallet': m['transactions.all.filters.types.eWallet'],
  'topup.card': m['transactions.all.filters.types.card'],
} satisfies Record<string, () => string>;

const RELATED = {
  'credit.recharge': m['transactions.related.recharge'],
  'credit.bonus': m['transactions.related.bonus'],
  'credit.recall': m['transactions.related.recall'],
  'credit.refund': m['transactions.related.refund'],
} satisfies Record<string, (inputs: { value: string }) => string>;

const STATUSES = ['pending', 'success', 'failed'] as const;

const STATUS_TEXTS = {
  pending: m['transactions.status.pending'],
  success: m['transactions.status.success'],
  failed: m['transactions.status.failed'],
} satisfies Record<(typeof STATUSES)[number], () => string>;
export const LEDGER_STATUS_PALETTE = { pending: 'orange', success: 'green', failed: 'red', unknown: 'gray' } as const;

const isClawback = (transaction: Transaction) =>
  transaction.type === 'adjustment' && transaction.payload.direction === 'clawback';

export function ledgerTypeText(transaction: Transaction): string {
  const { type, payload } = transaction;
  if (Object.hasOwn(TOP_UPS, type)) return TOP_UPS[type as keyof typeof TOP_UPS]();
  if (type === 'credit.pay') {
    const game = payload.metadata?.productName || payload.metadata?.productCode || '';
    return m['transactions.type.pay']({ game }).trim();
  }
  if (type === 'giftcode') return m['transactions.type.giftcode']();
  if (type === 'adjustment')
    return isClawback(transaction) ? m['transactions.type.clawback']() : m['transactions.type.adjustment']();
  return type;
}

/** VND for a top-up, KP with its sign for the rest. */
export function ledgerValueText(transaction: Transaction): string {
  const { type, realValue, currency } = transaction;
  const value = formatAmount(Math.abs(realValue));
  if (type.startsWith('topup.')) return m['staff.players.ledger.vnd']({ amount: value });
  if (type === 'credit.pay' || isClawback(transaction)) return m['transactions.value.spent']({ value });
  if (type === 'giftcode' || type === 'adjustment') return m['transactions.value.received']({ value });
  return m['transactions.value.other']({ value: formatAmount(realValue), currency });
}

export function ledgerStatusText(status: string): string {
  return (STATUSES as readonly string[]).includes(status)
    ? STATUS_TEXTS[status as (typeof STATUSES)[number]]()
    : m['transactions.status.unknown']();
}

/** What else the entry says: coins bought, the channel and serial, an adjustment's reason, what it caused. */
export function ledgerDetails(transaction: Transaction): string[] {
  const { type, payload } = transaction;
  const lines: string[] = [];
  const metadata = payload.metadata;
  if (type === 'credit.pay' && metadata) {
    const coinName = metadata.coinName || '';
    lines.push(m['transactions.details.coin']({ coin: formatAmount(metadata.coin), coinName }));
    if (metadata.coinBonus > 0) {
      lines.push(m['transactions.details.coinBonus']({ coin: formatAmount(metadata.coinBonus), coinName }));
    }
  }
  if (type.startsWith('topup.')) {
    const channel = payload.source ?? payload.provider;
    if (channel) lines.push(channel);
    if (payload.serial) lines.push(m['transactions.details.serial']({ serial: payload.serial }));
    if (payload.errorCode) lines.push(payload.errorCode);
  }
  if (payload.reason?.trim()) lines.push(m['transactions.details.reason']({ reason: payload.reason.trim() }));
  if (payload.campaign?.trim()) lines.push(m['transactions.details.campaign']({ campaign: payload.campaign.trim() }));
  for (const related of transaction.relatedTransactions) {
    const relatedText = Object.hasOwn(RELATED, related.type) ? RELATED[related.type as keyof typeof RELATED] : null;
    if (relatedText) lines.push(relatedText({ value: formatAmount(Math.abs(related.realValue)) }));
  }
  return lines.map((line) => line.replace(/\s+/g, ' ').trim());
}
