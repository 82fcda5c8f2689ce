import type { ReactNode } from 'react';

import { Table } from '@/components/ui/table';
import { m } from '@/paraglide/messages';
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
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" minW="2xl" aria-label={label ?? m['transactions.title']()}>
        <Table.Header>
          <Table.Row bg="transparent">
            <Table.ColumnHeader>{m['transactions.columns.type']()}</Table.ColumnHeader>
            <Table.ColumnHeader>{m['transactions.columns.value']()}</Table.ColumnHeader>
            <Table.ColumnHeader>{m['transactions.columns.details']()}</Table.ColumnHeader>
            <Table.ColumnHeader>{m['transactions.columns.status']()}</Table.ColumnHeader>
            <Table.ColumnHeader>{m['transactions.columns.time']()}</Table.ColumnHeader>
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
