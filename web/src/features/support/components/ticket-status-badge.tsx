import { Badge } from '@/components/ui/badge';

import { isOneOf, STATUS_PALETTE, STATUS_TEXT, TICKET_STATUSES } from '../utils/ticket-text';

/** Where a ticket stands: waiting for support, answered, or closed. */
export function TicketStatusBadge({ status }: { status: string }) {
  if (!isOneOf(TICKET_STATUSES, status)) return null;
  return (
    <Badge colorPalette={STATUS_PALETTE[status]} variant="subtle" size="md" whiteSpace="nowrap">
      {STATUS_TEXT[status]()}
    </Badge>
  );
}
