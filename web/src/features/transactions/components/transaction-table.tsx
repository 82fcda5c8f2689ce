import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { Table } from '@/components/ui/table';
import type { Transaction } from '@/types/api-schema';

import {
  TransactionDetails,
  TransactionStatus,
  TransactionTime,
  TransactionType,
  TransactionValue,
} from './transaction-cells';

export type TransactionViewProps = {
  transactions: Transaction[];
  /** The table's or list's accessible name; the history's title unless told. */
  label?: string;
  /** One more column (a link to the receipt, say), headed `action.label`. */
  action?: { label: string; render: (transaction: Transaction) => ReactNode };
};

/**
 * The history as a table, for screens from `md` up; should the card still be narrower than the
 * table, it scrolls sideways inside it. Phones get `TransactionList` instead.
 */
export function TransactionTable({ transactions, label, action }: TransactionViewProps) {
  const { t } = useTranslation();
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" minW="2xl" aria-label={label ?? t('transactions.title')}>
        <Table.Header>
          <Table.Row bg="transparent">
            <Table.ColumnHeader>{t('transactions.columns.type')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('transactions.columns.value')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('transactions.columns.details')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('transactions.columns.status')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('transactions.columns.time')}</Table.ColumnHeader>
            {action && <Table.ColumnHeader>{action.label}</Table.ColumnHeader>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {transactions.map((transaction) => (
            <Table.Row key={transaction.id} bg="transparent" verticalAlign="top">
              <Table.Cell>
                <TransactionType transaction={transaction} />
              </Table.Cell>
              <Table.Cell>
                <TransactionValue transaction={transaction} />
              </Table.Cell>
              <Table.Cell>
                <TransactionDetails transaction={transaction} />
              </Table.Cell>
              <Table.Cell>
                <TransactionStatus status={transaction.status} />
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap" color="fg.muted">
                <TransactionTime transaction={transaction} />
              </Table.Cell>
              {action && <Table.Cell whiteSpace="nowrap">{action.render(transaction)}</Table.Cell>}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
