import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Stack } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Text } from '@/components/ui/text';
import { Tooltip } from '@/components/ui/tooltip';
import { formatDateTime } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { Transaction } from '@/types/api-schema';

import { detailLines, isOneOf, STATUS_PALETTE, STATUS_TEXT, typeLabel, valueText } from '../utils/transaction-text';

/** What the transaction was; its id shows in a tooltip on hover or keyboard focus. */
export function TransactionType({ transaction }: { transaction: Transaction }) {
  return (
    <Tooltip content={m['transactions.id']({ id: transaction.id })} positioning={{ placement: 'top-start' }}>
      <Text
        as="span"
        tabIndex={0}
        fontWeight="medium"
        cursor="help"
        textDecoration="underline dotted"
        textDecorationColor="fg.subtle"
        textUnderlineOffset="3px"
        borderRadius="sm"
        focusRing="outside"
      >
        {typeLabel(transaction)}
      </Text>
    </Tooltip>
  );
}

export function TransactionValue({ transaction }: { transaction: Transaction }) {
  return (
    <Text as="span" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
      {valueText(transaction)}
    </Text>
  );
}

type TransactionDetailsProps = {
  transaction: Transaction;
  /** Wraps the lines, e.g. in a labelled field; not called when there is no line to show. */
  wrap?: (lines: ReactNode) => ReactNode;
};

/** The detail lines, one per fact; nothing at all when there are none. */
export function TransactionDetails({ transaction, wrap = (lines) => lines }: TransactionDetailsProps) {
  const lines = detailLines(transaction);
  if (lines.length === 0) return null;
  return wrap(
    <Stack gap="0.5">
      {lines.map((line) =>
        line.warning ? (
          <Text key={line.key} color="fg.warning" display="inline-flex" alignItems="center" gap="1">
            <TriangleAlert size={14} aria-hidden />
            {line.text}
          </Text>
        ) : (
          <Text key={line.key}>{line.text}</Text>
        ),
      )}
    </Stack>,
  );
}

export function TransactionStatus({ status }: { status: string }) {
  const known = isOneOf(Object.keys(STATUS_PALETTE) as (keyof typeof STATUS_PALETTE)[], status) ? status : null;
  return (
    <Badge colorPalette={known ? STATUS_PALETTE[known] : 'gray'} variant="subtle" size="md" whiteSpace="nowrap">
      {known ? STATUS_TEXT[known]() : m['transactions.status.unknown']()}
    </Badge>
  );
}

/** When the transaction was last updated, in local time; nothing when the server sent none. */
export function TransactionTime({ transaction }: { transaction: Transaction }) {
  const { updatedAt } = transaction;
  return updatedAt ? <time dateTime={updatedAt}>{formatDateTime(updatedAt)}</time> : null;
}
