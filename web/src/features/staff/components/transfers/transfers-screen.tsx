import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Flex, HStack, Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Separator } from '@/components/ui/separator';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import { useStaffMe } from '../../api/get-staff-me';
import { useTransfers, type Transfer } from '../../api/get-transfers';

import { MatchDialog } from './match-dialog';
import { TransferCard } from './transfer-card';

/** 'Chưa khớp' (the queue) or 'Đã khớp' (matched by hand), kept in the URL as ?matched=true. */
function ViewSwitch({ matched, onChange }: { matched: boolean; onChange: (matched: boolean) => void }) {
  return (
    <HStack gap="2" role="group" aria-label={m['staff.transfers.views.label']()}>
      {([false, true] as const).map((value) => (
        <Button
          key={String(value)}
          size="sm"
          variant={matched === value ? 'solid' : 'outline'}
          aria-pressed={matched === value}
          onClick={() => onChange(value)}
        >
          {value ? m['staff.transfers.views.matched']() : m['staff.transfers.views.unmatched']()}
        </Button>
      ))}
    </HStack>
  );
}

/**
 * Unmatched transfers (every role): bank and e-wallet transfers that matched no player, newest
 * first, each with why and whom it may be for. Finance credits one to a suggested player or to
 * a username typed, after confirming the amount and the player; the re-authentication a match
 * needs is the console client's. Past the approval threshold the match is only asked for and
 * shows as pending, and another finance member approves it with the same confirmation.
 * 'Đã khớp' lists those matched by hand.
 */
export function TransfersScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const matched = searchParams.get('matched') === 'true';
  const transfers = useTransfers(matched);
  const { data: me } = useStaffMe();
  const canMatch = me?.role === 'finance';
  const [matching, setMatching] = useState<{ transfer: Transfer; player: string } | null>(null);

  let body;
  if (transfers.isPending) body = <LoadingText>{m['staff.transfers.loading']()}</LoadingText>;
  else if (transfers.isError) {
    body = (
      <LoadFailed
        title={m['staff.transfers.loadFailed']()}
        error={transfers.error}
        retrying={transfers.isFetching}
        onRetry={() => void transfers.refetch()}
      />
    );
  } else if (transfers.data.length === 0) {
    body = <Text color="fg.muted">{matched ? m['staff.transfers.emptyMatched']() : m['staff.transfers.empty']()}</Text>;
  } else {
    body = (
      <Stack gap="4">
        <Text fontSize="sm" color="fg.muted" role="status">
          {m['staff.transfers.count']({ count: transfers.data.length })}
        </Text>
        <Stack
          as="ul"
          aria-label={matched ? m['staff.transfers.listLabelMatched']() : m['staff.transfers.listLabel']()}
          gap="3"
          listStyleType="none"
          m="0"
          p="0"
        >
          {transfers.data.map((transfer) => (
            <TransferCard
              key={transfer.id}
              transfer={transfer}
              canMatch={canMatch}
              selfUsername={me?.username ?? ''}
              onMatch={(each, player) => setMatching({ transfer: each, player })}
            />
          ))}
        </Stack>
      </Stack>
    );
  }

  return (
    <>
      <PageHeader title={m['staff.transfers.title']()} subtitle={m['staff.transfers.subtitle']()} />
      <ContentCard p={{ base: '3', md: '6' }}>
        <Flex gap="3" align="center" justify="space-between" wrap="wrap">
          <ViewSwitch matched={matched} onChange={(next) => setSearchParams(next ? { matched: 'true' } : {})} />
          {me && !canMatch && (
            <Text fontSize="sm" color="fg.muted">
              {m['staff.transfers.readOnly']()}
            </Text>
          )}
        </Flex>
        <Separator my={{ base: '4', md: '6' }} />
        {body}
      </ContentCard>
      {matching && (
        <MatchDialog transfer={matching.transfer} player={matching.player} onClose={() => setMatching(null)} />
      )}
    </>
  );
}
