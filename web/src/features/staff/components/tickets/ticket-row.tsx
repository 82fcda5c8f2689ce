import { Link as RouterLink } from 'react-router';
import { Flex, styled } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';
import type { TicketSummaryBody } from '@/types/api-schema';

import { ticketPath } from '../../config/paths';
import { formatVietnamTime } from '../../utils/time';
import { ticketCategoryText, ticketStatusText, TICKET_STATUS_PALETTE } from '../../utils/ticket-texts';

const time = (value: string | null | undefined) => formatVietnamTime(value, { seconds: false });

/** A ticket in a list: its subject (a link to it), category, status and last activity. */
export function TicketRow({ ticket, showPlayer = false }: { ticket: TicketSummaryBody; showPlayer?: boolean }) {
  return (
    <styled.li
      p={{ base: '3', md: '4' }}
      borderWidth="1px"
      borderColor="border"
      borderRadius="lg"
      data-ticket={ticket.id}
    >
      <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
        <Link asChild color="brand.fg" fontWeight="semibold" overflowWrap="anywhere" minW="0">
          <RouterLink to={ticketPath(ticket.id)}>{ticket.subject}</RouterLink>
        </Link>
        <Badge colorPalette={TICKET_STATUS_PALETTE[ticket.status] ?? 'gray'} variant="subtle" whiteSpace="nowrap">
          {ticketStatusText(ticket.status)}
        </Badge>
      </Flex>
      <Flex mt="1" columnGap="3" rowGap="0.5" wrap="wrap" fontSize="sm" color="fg.muted">
        {showPlayer && (
          <Text as="span" fontWeight="medium" color="fg" overflowWrap="anywhere">
            {ticket.username}
          </Text>
        )}
        <Text as="span">{ticketCategoryText(ticket.category)}</Text>
        {ticket.updatedAt && (
          <Text as="span" fontVariantNumeric="tabular-nums">
            {m['staff.tickets.updatedAt']({ time: time(ticket.updatedAt) })}
          </Text>
        )}
      </Flex>
    </styled.li>
  );
}
