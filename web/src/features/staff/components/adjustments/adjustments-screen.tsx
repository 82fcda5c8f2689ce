import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { Separator } from '@/components/ui/separator';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import type { AdjustmentDecision } from '../../api/decide-adjustment';
import { usePlayerUsernames } from '../../api/find-player';
import {
  ADJUSTMENT_STATUSES,
  isAdjustmentStatus,
  useAdjustments,
  type Adjustment,
  type AdjustmentStatus,
} from '../../api/get-adjustments';
import { useStaffMe } from '../../api/get-staff-me';
import { adjustmentStatusText } from '../../utils/adjustment-texts';
import { formatAmount } from '../../utils/amount';

import { AdjustmentCard } from './adjustment-card';
import { AskForm } from './ask-form';
import { DecideDialog } from './decide-dialog';

function StatusFilter({ status, onChange }: { status: AdjustmentStatus | null; onChange: (status: string) => void }) {
  return (
    <Field.Root maxW={{ base: 'full', sm: '72' }}>
      <Field.Label>{m['staff.adjustments.filter.label']()}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={status ?? ''} onChange={(event) => onChange(event.target.value)}>
          <option value="">{m['staff.adjustments.filter.all']()}</option>
          {ADJUSTMENT_STATUSES.map((each) => (
            <option key={each} value={each}>
              {adjustmentStatusText(each)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/** Pending ones first (they wait for someone), each group newest first as the server sends them. */
const pendingFirst = (adjustments: Adjustment[]) =>
  [...adjustments].sort((a, b) => Number(b.status === 'pending') - Number(a.status === 'pending'));

/**
 * KP adjustments (every role): the newest ones, pending first, filtered by status (?status=…),
 * and what the threshold means. Finance asks for one (?player=… prefills the player, for links
 * from a player's page) and approves or rejects pending ones, not their own.
 */
export function AdjustmentsScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const rawStatus = searchParams.get('status') ?? '';
  const status = isAdjustmentStatus(rawStatus) ? rawStatus : null;
  const player = searchParams.get('player')?.trim() ?? '';
  const adjustments = useAdjustments(status);
  const { data: me } = useStaffMe();
  const isFinance = me?.role === 'finance';
  const [deciding, setDeciding] = useState<{ adjustment: Adjustment; decision: AdjustmentDecision } | null>(null);

  const rows = useMemo(() => pendingFirst(adjustments.data?.adjustments ?? []), [adjustments.data]);
  const usernames = usePlayerUsernames(rows.map(({ userId }) => userId));
  const playerOf = (adjustment: Adjustment) => usernames.get(adjustment.userId) ?? adjustment.userId;

  const applyStatus = (next: string) => {
    const params = new URLSearchParams(searchParams);
    if (next) params.set('status', next);
    else params.delete('status');
    setSearchParams(params);
  };

  let body;
  if (adjustments.isPending) body = <LoadingText>{m['staff.adjustments.loading']()}</LoadingText>;
  else if (adjustments.isError) {
    body = (
      <LoadFailed
        title={m['staff.adjustments.loadFailed']()}
        error={adjustments.error}
        retrying={adjustments.isFetching}
        onRetry={() => void adjustments.refetch()}
      />
    );
  } else if (rows.length === 0) {
    body = (
      <Text color="fg.muted">{status ? m['staff.adjustments.emptyFiltered']() : m['staff.adjustments.empty']()}</Text>
    );
  } else {
    body = (
      <Stack gap="3">
        <Text fontSize="sm" color="fg.muted" role="status">
          {m['staff.adjustments.count']({ count: rows.length })}
        </Text>
        <Stack as="ul" aria-label={m['staff.adjustments.listLabel']()} gap="3" listStyleType="none" m="0" p="0">
          {rows.map((adjustment) => (
            <AdjustmentCard
              key={adjustment.id}
              adjustment={adjustment}
              player={playerOf(adjustment)}
              selfId={me?.id ?? ''}
              canDecide={isFinance}
              onDecide={(each, decision) => setDeciding({ adjustment: each, decision })}
            />
          ))}
        </Stack>
      </Stack>
    );
  }

  const threshold = adjustments.data?.approvalThresholdKp;

  return (
    <>
      <PageHeader title={m['staff.adjustments.title']()} subtitle={m['staff.adjustments.subtitle']()} />
      <Stack gap={{ base: '4', md: '6' }}>
        {threshold !== undefined && (
          <Alert.Root status="info" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Description>{m['staff.adjustments.threshold']({ kp: formatAmount(threshold) })}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {isFinance && (
          <ContentCard p={{ base: '3', md: '6' }}>
            {/* A new form per linked player: following another player's link prefills theirs. */}
            <AskForm key={player} player={player} />
          </ContentCard>
        )}
        <ContentCard p={{ base: '3', md: '6' }}>
          <StatusFilter status={status} onChange={applyStatus} />
          {me && !isFinance && (
            <Text mt="3" fontSize="sm" color="fg.muted">
              {m['staff.adjustments.readOnly']()}
            </Text>
          )}
          <Separator my={{ base: '4', md: '6' }} />
          {body}
        </ContentCard>
      </Stack>
      {deciding && (
        <DecideDialog
          adjustment={deciding.adjustment}
          decision={deciding.decision}
          player={playerOf(deciding.adjustment)}
          onClose={() => setDeciding(null)}
        />
      )}
    </>
  );
}
