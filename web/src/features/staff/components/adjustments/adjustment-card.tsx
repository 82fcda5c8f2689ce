import { useId, type ReactNode } from 'react';
import { Box, Flex, HStack, Stack, styled } from 'styled-system/jsx';

import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import type { AdjustmentDecision } from '../../api/decide-adjustment';
import { isAdjustmentStatus, type Adjustment, type AdjustmentStatus } from '../../api/get-adjustments';
import { adjustmentStatusText } from '../../utils/adjustment-texts';
import { formatSignedAmount } from '../../utils/amount';
import { formatVietnamTime } from '../../utils/time';

const PALETTES: Record<AdjustmentStatus, BadgeProps['colorPalette']> = {
  pending: 'orange',
  applied: 'green',
  rejected: 'red',
};

function StatusBadge({ status }: { status: string }) {
  if (!isAdjustmentStatus(status)) return <Badge variant="subtle">{status}</Badge>;
  return (
    <Badge colorPalette={PALETTES[status]} variant="subtle">
      {adjustmentStatusText(status)}
    </Badge>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <HStack gap="1.5" minW="0" alignItems="baseline" flexWrap="wrap">
      <Text as="span" color="fg.muted">
        {label}
      </Text>
      {children}
    </HStack>
  );
}

type AdjustmentCardProps = {
  adjustment: Adjustment;
  /** The player's username, or their id while it is not known. */
  player: string;
  /** The signed-in member's id: their own requests cannot be decided by them. */
  selfId: string;
  /** Finance: 'Duyệt' and 'Từ chối' on a pending one. */
  canDecide: boolean;
  onDecide: (adjustment: Adjustment, decision: AdjustmentDecision) => void;
};

/**
 * One adjustment: the KP (+ credits, − claws back), the player, its status, the reason, who
 * asked and when, who decided and when; pending, for finance, 'Duyệt' and 'Từ chối', disabled on
 * one's own request with the reason beside them.
 */
export function AdjustmentCard({ adjustment, player, selfId, canDecide, onDecide }: AdjustmentCardProps) {
  const own = adjustment.requestedBy === selfId;
  const ownNoteId = useId();
  const kp = formatSignedAmount(adjustment.kp);
  const decided = adjustment.status !== 'pending' && adjustment.decidedByUsername;

  return (
    <styled.li
      data-adjustment={adjustment.id}
      data-status={adjustment.status}
      p={{ base: '3', md: '4' }}
      borderWidth="1px"
      borderColor="border"
      borderRadius="lg"
      css={{ '&[data-status=pending]': { borderColor: 'orange.muted' } }}
    >
      <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
        <Stack gap="0.5" minW="0">
          <HStack gap="2" flexWrap="wrap">
            <Text
              fontWeight="bold"
              fontSize="lg"
              fontVariantNumeric="tabular-nums"
              color={adjustment.kp < 0 ? 'red.fg' : 'green.fg'}
              title={adjustment.kp < 0 ? m['staff.adjustments.clawback']() : m['staff.adjustments.credit']()}
            >
              {m['staff.adjustments.kp']({ kp })}
            </Text>
            <StatusBadge status={adjustment.status} />
          </HStack>
          <Fact label={m['staff.adjustments.player']()}>
            <Text as="span" fontWeight="medium" overflowWrap="anywhere">
              {player}
            </Text>
          </Fact>
        </Stack>
        <styled.time
          dateTime={adjustment.createdAt ?? undefined}
          fontSize="sm"
          color="fg.muted"
          fontVariantNumeric="tabular-nums"
        >
          {formatVietnamTime(adjustment.createdAt)}
        </styled.time>
      </Flex>

      <Box mt="2" fontSize="sm">
        <Text color="fg.muted">{m['staff.adjustments.reason']()}</Text>
        <Text whiteSpace="pre-wrap" overflowWrap="anywhere">
          {adjustment.reason}
        </Text>
      </Box>

      <Flex mt="2" columnGap="4" rowGap="1" wrap="wrap" fontSize="sm">
        <Fact label={m['staff.adjustments.askedBy']()}>
          <Text as="span">
            {adjustment.requestedByUsername}
            {own && ` ${m['staff.adjustments.you']()}`}
          </Text>
        </Fact>
        {decided && (
          <Fact
            label={
              adjustment.status === 'rejected'
                ? m['staff.adjustments.rejectedBy']()
                : m['staff.adjustments.decidedBy']()
            }
          >
            <Text as="span">{adjustment.decidedByUsername}</Text>
          </Fact>
        )}
        {adjustment.decidedAt && (
          <Fact label={m['staff.adjustments.decidedAt']()}>
            <Text as="span" fontVariantNumeric="tabular-nums">
              {formatVietnamTime(adjustment.decidedAt)}
            </Text>
          </Fact>
        )}
      </Flex>

      {canDecide && adjustment.status === 'pending' && (
        <Flex mt="3" gap="2" align="center" wrap="wrap">
          <HStack gap="2" role="group" aria-label={m['staff.adjustments.actionsOf']({ kp, player })}>
            <Button
              size="sm"
              disabled={own}
              aria-describedby={own ? ownNoteId : undefined}
              onClick={() => onDecide(adjustment, 'approve')}
            >
              {m['staff.adjustments.approve']()}
            </Button>
            <Button
              size="sm"
              variant="outline"
              colorPalette="red"
              disabled={own}
              aria-describedby={own ? ownNoteId : undefined}
              onClick={() => onDecide(adjustment, 'reject')}
            >
              {m['staff.adjustments.reject']()}
            </Button>
          </HStack>
          {own && (
            <Text id={ownNoteId} fontSize="sm" color="fg.muted">
              {m['staff.adjustments.ownRequest']()}
            </Text>
          )}
        </Flex>
      )}
    </styled.li>
  );
}
