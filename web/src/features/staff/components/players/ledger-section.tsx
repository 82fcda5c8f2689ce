import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Flex, Stack, styled } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';
import type { Transaction } from '@/types/api-schema';

import { useOlderLedger, type PlayerDetail } from '../../api/get-player';
import {
  ledgerDetails,
  ledgerStatusText,
  ledgerTypeText,
  ledgerValueText,
  LEDGER_STATUS_PALETTE,
} from '../../utils/ledger-text';
import { formatVietnamTime } from '../../utils/time';

import { Nothing, PlayerSection } from './player-section';

function LedgerEntry({ transaction, asked }: { transaction: Transaction; asked: boolean }) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (asked) ref.current?.scrollIntoView({ block: 'center' });
  }, [asked]);
  const details = ledgerDetails(transaction);
  const palette = LEDGER_STATUS_PALETTE[transaction.status];

  return (
    <styled.li
      ref={ref}
      px={{ base: '3', md: '4' }}
      py="3"
      borderBottomWidth="1px"
      borderColor="border"
      _last={{ borderBottomWidth: '0' }}
      _current={{ bg: 'brand.subtle' }}
      aria-current={asked ? 'true' : undefined}
      data-transaction={transaction.id}
      data-type={transaction.type}
    >
      <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
        <Stack gap="0.5" minW="0">
          <Text fontWeight="medium">{ledgerTypeText(transaction)}</Text>
          <Text fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
            {formatVietnamTime(transaction.createdAt)}
          </Text>
        </Stack>
        {/* Beside the type on a wide screen; one line under it when it wraps on a phone. */}
        <Flex
          direction={{ base: 'row', sm: 'column' }}
          gap={{ base: '2', sm: '1' }}
          align={{ base: 'center', sm: 'flex-end' }}
        >
          <Text fontWeight="semibold" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
            {ledgerValueText(transaction)}
          </Text>
          <Badge colorPalette={palette} variant="subtle" size="sm">
            {ledgerStatusText(transaction.status)}
          </Badge>
        </Flex>
      </Flex>
      {details.length > 0 && (
        <Text mt="1" fontSize="sm" color="fg.muted" overflowWrap="anywhere">
          {details.join(' · ')}
        </Text>
      )}
      <Text mt="1" fontFamily="mono" fontSize="xs" color="fg.muted" overflowWrap="anywhere">
        {m['staff.players.ledger.id']({ id: transaction.id })}
      </Text>
      {asked && (
        <Text mt="1" fontSize="xs" color="brand.fg" fontWeight="medium">
          {m['staff.players.ledger.asked']()}
        </Text>
      )}
    </styled.li>
  );
}

type LedgerSectionProps = {
  detail: Pick<PlayerDetail, 'ledger' | 'ledgerNextCursor'>;
  playerId: string;
  /** A transaction to point out (a ticket's link to it), if any. */
  askedId: string | null;
};

/**
 * The player's whole ledger, newest first: the page's first 100, then 'Xem thêm' reads the
 * older ones a page at a time from where the first ones ended.
 */
export function LedgerSection({ detail, playerId, askedId }: LedgerSectionProps) {
  const [more, setMore] = useState(false);
  const older = useOlderLedger(playerId, detail.ledgerNextCursor ?? null, more);

  const transactions = useMemo(() => {
    const seen = new Set<string>();
    return [...detail.ledger, ...(older.data?.pages.flatMap((page) => page.items) ?? [])].filter(
      (transaction) => !seen.has(transaction.id) && !!seen.add(transaction.id),
    );
  }, [detail.ledger, older.data]);

  const hasMore = more ? older.hasNextPage || older.isPending : !!detail.ledgerNextCursor;
  const loadingMore = more && (older.isFetching || older.isPending) && !older.isError;
  const loadMore = () => {
    if (!more) setMore(true);
    else void older.fetchNextPage();
  };

  return (
    <PlayerSection title={m['staff.players.ledger.title']()}>
      {transactions.length === 0 ? (
        <Nothing>{m['staff.players.ledger.empty']()}</Nothing>
      ) : (
        <Stack gap="4">
          <Box borderWidth="1px" borderColor="border" borderRadius="lg" overflow="hidden">
            <Stack as="ul" aria-label={m['staff.players.ledger.listLabel']()} gap="0" listStyleType="none" m="0" p="0">
              {transactions.map((transaction) => (
                <LedgerEntry key={transaction.id} transaction={transaction} asked={transaction.id === askedId} />
              ))}
            </Stack>
          </Box>
          {older.isError && (
            <LoadFailed
              title={m['staff.players.ledger.loadMoreFailed']()}
              error={older.error}
              retrying={older.isFetching}
              onRetry={() => void (older.data ? older.fetchNextPage() : older.refetch())}
            />
          )}
          <Flex align="center" justify="space-between" gap="3" wrap="wrap">
            <Text fontSize="sm" color="fg.muted" role="status">
              {hasMore
                ? m['staff.players.ledger.shown']({ count: transactions.length })
                : m['staff.players.ledger.allShown']({ count: transactions.length })}
            </Text>
            {hasMore && (
              <Button
                variant="outline"
                size="sm"
                w={{ base: 'full', sm: 'auto' }}
                loading={loadingMore}
                onClick={loadMore}
              >
                {m['staff.players.ledger.loadMore']()}
              </Button>
            )}
          </Flex>
        </Stack>
      )}
    </PlayerSection>
  );
}
