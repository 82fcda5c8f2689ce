import { ArrowLeft, Check, Copy, Printer } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { css } from 'styled-system/css';
import { Box, Flex, Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { MissingItem } from '@/components/feedback/missing-item';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Button, IconButton } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { Heading, Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { useCopyToClipboard } from '@/hooks/use-copy-to-clipboard';
import { toApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { Transaction } from '@/types/api-schema';

import { useTransaction } from '../api/get-transaction';
import { detailLines, typeLabel } from '../utils/transaction-text';

import type { ReceiptLocationState } from './receipt-link';
import { TransactionDetails, TransactionStatus, TransactionValue } from './transaction-cells';

/**
 * On paper the dark theme's light text would print light on white: the receipt prints dark on
 * white whatever the colour mode, its badges as plain outlined text (the shell's header and
 * navigation, and the receipt's buttons, do not print at all).
 */
const PRINT_STYLES = css({
  '@media print': {
    '--colors-fg': 'black',
    '--colors-fg-muted': '#4a4a4a',
    '--colors-bg-panel': 'white',
    '--colors-border': '#d4d4d4',
    color: 'black',
    '& .badge': { background: 'transparent', color: 'black', borderWidth: '1px', borderColor: 'current' },
  },
});

/** The page that opened the receipt, when it was the history; else the full history. */
function useBackTo(): string {
  const state = useLocation().state as ReceiptLocationState | null;
  const from = state?.from;
  return typeof from === 'string' && from.startsWith(paths.transactions) ? from : paths.transactionsAll;
}

/** One labelled fact of the receipt. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      display="grid"
      gridTemplateColumns={{ base: '1fr', sm: '11rem 1fr' }}
      // Breakpoints are screen widths: paper gets the wide layout too.
      _print={{ gridTemplateColumns: '11rem 1fr' }}
      columnGap="4"
      rowGap="1"
      py="3"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: '0' }}
    >
      <Box as="dt" color="fg.muted" fontSize="sm">
        {label}
      </Box>
      <Box as="dd" overflowWrap="anywhere">
        {children}
      </Box>
    </Box>
  );
}

function CopyableId({ id }: { id: string }) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <Flex align="center" gap="2" wrap="wrap">
      <Text
        as="span"
        fontFamily="mono"
        fontSize={{ base: 'xs', sm: 'sm' }}
        overflowWrap="anywhere"
        data-testid="receipt-id"
      >
        {id}
      </Text>
      <IconButton
        variant="ghost"
        size="xs"
        aria-label={m['transactions.receipt.copy']()}
        title={m['transactions.receipt.copy']()}
        onClick={() => void copy(id)}
        _print={{ display: 'none' }}
      >
        {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      </IconButton>
      <Text as="span" role="status" fontSize="xs" color="fg.success" fontWeight="medium">
        {copied ? m['transactions.receipt.copied']() : ''}
      </Text>
    </Flex>
  );
}

const time = (value: string | null) => (value ? <time dateTime={value}>{formatDateTime(value)}</time> : '');

function Receipt({ transaction }: { transaction: Transaction }) {
  return (
    <Stack gap="4">
      <Heading as="h2" size="lg">
        {typeLabel(transaction)}
      </Heading>
      <Box as="dl" borderTopWidth="1px">
        <Row label={m['transactions.receipt.id']()}>
          <CopyableId id={transaction.id} />
        </Row>
        <Row label={m['transactions.columns.value']()}>
          <Text as="span" fontSize="lg" fontWeight="semibold">
            <TransactionValue transaction={transaction} />
          </Text>
        </Row>
        <Row label={m['transactions.columns.status']()}>
          <TransactionStatus status={transaction.status} />
        </Row>
        <Row label={m['transactions.receipt.createdAt']()}>{time(transaction.createdAt)}</Row>
        <Row label={m['transactions.receipt.updatedAt']()}>{time(transaction.updatedAt)}</Row>
        <Row label={m['transactions.columns.details']()}>
          {detailLines(transaction).length > 0 ? (
            <TransactionDetails transaction={transaction} />
          ) : (
            <Text color="fg.muted">{m['transactions.receipt.noDetails']()}</Text>
          )}
        </Row>
      </Box>
    </Stack>
  );
}

/**
 * /transactions/:id: one transaction's receipt, with its id to copy, what it was, its value and
 * status, when it was made and last changed, and its details (coins, bonus, serial, a card's
 * refusal, the related KP) as the history shows them; a back link to the history that opened
 * it and 'In biên lai'. An id that is none of the player's says so, with the way back.
 */
export function ReceiptScreen() {
  const { id = '' } = useParams();
  const backTo = useBackTo();
  const receipt = useTransaction(id);
  const notFound = receipt.isError && toApiError(receipt.error).status === 404;

  return (
    <Box className={PRINT_STYLES}>
      <Flex justify="space-between" align="center" gap="3" mb="3" _print={{ display: 'none' }}>
        <Link asChild fontSize="sm" color="fg.muted">
          <RouterLink to={backTo}>
            <ArrowLeft size={16} aria-hidden />
            {m['transactions.receipt.back']()}
          </RouterLink>
        </Link>
        {receipt.data && (
          <Button size="sm" variant="outline" onClick={() => window.print()}>
            <Printer size={16} aria-hidden />
            {m['transactions.receipt.print']()}
          </Button>
        )}
      </Flex>
      <PageHeader title={m['transactions.receipt.title']()} />
      <ContentCard p={{ base: '4', md: '8' }} _print={{ p: '0', borderWidth: '0', shadow: 'none' }}>
        {receipt.isPending && <LoadingText>{m['transactions.receipt.loading']()}</LoadingText>}
        {notFound && (
          <MissingItem
            title={m['transactions.receipt.notFound']()}
            hint={m['transactions.receipt.notFoundHint']()}
            back={{ label: m['transactions.receipt.back'](), to: backTo }}
          />
        )}
        {receipt.isError && !notFound && (
          <LoadFailed
            title={m['transactions.receipt.loadFailed']()}
            error={receipt.error}
            retrying={receipt.isFetching}
            onRetry={() => void receipt.refetch()}
          />
        )}
        {receipt.data && <Receipt transaction={receipt.data} />}
      </ContentCard>
    </Box>
  );
}
