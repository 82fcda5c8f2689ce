import { Coins } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Flex, Stack, styled } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';
import type { TicketSummaryBody } from '@/types/api-schema';

import { isAdjustmentStatus } from '../../api/get-adjustments';
import type { PlayerDetail } from '../../api/get-player';
import { staffPaths } from '../../config/paths';
import { adjustmentStatusText } from '../../utils/adjustment-texts';
import { formatSignedAmount } from '../../utils/amount';
import { formatVietnamTime } from '../../utils/time';

import { TicketRow } from '../tickets/ticket-row';

import { Nothing, PlayerSection } from './player-section';

type Adjustment = PlayerDetail['adjustments'][number];

const ADJUSTMENT_PALETTE: Record<string, string> = { pending: 'orange', applied: 'green', rejected: 'gray' };

const time = (value: string | null | undefined) => formatVietnamTime(value, { seconds: false });

function AdjustmentRow({ adjustment }: { adjustment: Adjustment }) {
  const status = adjustment.status;
  return (
    <styled.li p="3" borderWidth="1px" borderColor="border" borderRadius="lg" data-adjustment={adjustment.id}>
      <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
        <Text fontWeight="semibold" fontVariantNumeric="tabular-nums">
          {m['staff.adjustments.kp']({ kp: formatSignedAmount(adjustment.kp) })}
          <Text as="span" fontWeight="normal" color="fg.muted">
            {' · '}
            {adjustment.kp < 0 ? m['staff.adjustments.clawback']() : m['staff.adjustments.credit']()}
          </Text>
        </Text>
        <Badge colorPalette={ADJUSTMENT_PALETTE[status] ?? 'gray'} variant="subtle">
          {isAdjustmentStatus(status) ? adjustmentStatusText(status) : status}
        </Badge>
      </Flex>
      <Text mt="1" fontSize="sm" overflowWrap="anywhere">
        {adjustment.reason}
      </Text>
      <Stack mt="1" gap="0" fontSize="xs" color="fg.muted">
        <Text>
          {m['staff.players.adjustments.askedBy']({
            username: adjustment.requestedByUsername,
            time: time(adjustment.createdAt),
          })}
        </Text>
        {adjustment.decidedByUsername && (
          <Text>
            {m['staff.players.adjustments.decidedBy']({
              username: adjustment.decidedByUsername,
              time: time(adjustment.decidedAt),
            })}
          </Text>
        )}
      </Stack>
    </styled.li>
  );
}

/** The player's KP adjustments; for finance, a link to the adjustments page with the player filled in. */
type AdjustmentsSectionProps = { adjustments: Adjustment[]; username: string; canAdjust: boolean };

export function AdjustmentsSection({ adjustments, username, canAdjust }: AdjustmentsSectionProps) {
  const action = canAdjust && (
    <Button asChild size="sm" variant="outline">
      <RouterLink to={`${staffPaths.adjustments}?${new URLSearchParams({ player: username }).toString()}`}>
        <Coins size={16} aria-hidden />
        {m['staff.players.adjustments.adjust']()}
      </RouterLink>
    </Button>
  );
  return (
    <PlayerSection title={m['staff.players.adjustments.title']()} actions={action}>
      {adjustments.length === 0 ? (
        <Nothing>{m['staff.players.adjustments.empty']()}</Nothing>
      ) : (
        <Stack as="ul" aria-label={m['staff.players.adjustments.listLabel']()} gap="3" listStyleType="none" m="0" p="0">
          {adjustments.map((adjustment) => (
            <AdjustmentRow key={adjustment.id} adjustment={adjustment} />
          ))}
        </Stack>
      )}
    </PlayerSection>
  );
}

/** The player's tickets, the most recently active first, each a link to its page. */
export function TicketsSection({ tickets }: { tickets: TicketSummaryBody[] }) {
  return (
    <PlayerSection title={m['staff.players.tickets.title']()}>
      {tickets.length === 0 ? (
        <Nothing>{m['staff.players.tickets.empty']()}</Nothing>
      ) : (
        <Stack as="ul" aria-label={m['staff.players.tickets.listLabel']()} gap="3" listStyleType="none" m="0" p="0">
          {tickets.map((ticket) => (
            <TicketRow key={ticket.id} ticket={ticket} />
          ))}
        </Stack>
      )}
    </PlayerSection>
  );
}
