import type { ReactNode } from 'react';
import { Box, HStack } from 'styled-system/jsx';

import { m } from '@/paraglide/messages';
import type { Transaction } from '@/types/api-schema';

import {
  TransactionDetails,
  TransactionStatus,
  TransactionTime,
  TransactionType,
  TransactionValue,
} from './transaction-cells';
import type { TransactionViewProps } from './transaction-table';

/** One labelled fact of a transaction: the table's column name, then the value. */
function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Box as="dt" color="fg.muted">
        {label}
      </Box>
      <Box as="dd" overflowWrap="anywhere">
        {children}
      </Box>
    </>
  );
}

function TransactionItem({ transaction, action }: { transaction: Transaction; action?: ReactNode }) {
  return (
    <Box as="li" py="4" borderBottomWidth="1px" _first={{ pt: '0' }} _last={{ pb: '0', borderBottomWidth: '0' }}>
      <HStack justify="space-between" gap="3" mb="3">
        <TransactionType transaction={transaction} />
        <TransactionStatus status={transaction.status} />
      </HStack>
      {/* Labels in one column as wide as the longest of them, values beside them. */}
      <Box as="dl" display="grid" gridTemplateColumns="auto 1fr" columnGap="4" rowGap="2" alignItems="baseline">
        <Field label={m['transactions.columns.value']()}>
          <TransactionValue transaction={transaction} />
        </Field>
        <TransactionDetails
          transaction={transaction}
          wrap={(lines) => <Field label={m['transactions.columns.details']()}>{lines}</Field>}
        />
        {transaction.updatedAt && (
          <Field label={m['transactions.columns.time']()}>
            <Box as="span" color="fg.muted">
              <TransactionTime transaction={transaction} />
            </Box>
          </Field>
        )}
      </Box>
      {action && <Box mt="3">{action}</Box>}
    </Box>
  );
}

/**
 * The history on a phone: one block per transaction, stacked, so that nothing hides off-screen
 * sideways. The same cells as `TransactionTable`, each labelled with its column's name.
 */
export function TransactionList({ transactions, label, action }: TransactionViewProps) {
  return (
    // `role` keeps the list semantics that Safari drops from a `ul` without bullets.
    <Box as="ul" role="list" listStyleType="none" textStyle="sm" aria-label={label ?? m['transactions.title']()}>
      {transactions.map((transaction) => (
        <TransactionItem key={transaction.id} transaction={transaction} action={action?.render(transaction)} />
      ))}
    </Box>
  );
}
