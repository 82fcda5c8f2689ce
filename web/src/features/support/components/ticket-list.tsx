import { Link as RouterLink } from 'react-router';
import { css } from 'styled-system/css';
import { Box, Flex, Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { Text } from '@/components/ui/text';
import { formatDateTime } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { TicketSummaryBody } from '@/types/api-schema';

import { useTickets } from '../api/get-tickets';
import { supportPaths } from '../config/paths';
import { CATEGORY_TEXT, isOneOf, TICKET_CATEGORIES } from '../utils/ticket-text';

import { TicketStatusBadge } from './ticket-status-badge';

const lastActivity = (ticket: TicketSummaryBody) => Date.parse(ticket.updatedAt ?? ticket.createdAt ?? '') || 0;

/** Newest activity first, as the server sends them (kept so whatever order they came in). */
const byActivity = (a: TicketSummaryBody, b: TicketSummaryBody) => lastActivity(b) - lastActivity(a);

function TicketItem({ ticket }: { ticket: TicketSummaryBody }) {
  const updatedAt = ticket.updatedAt ?? ticket.createdAt;
  return (
    <Box as="li">
      <RouterLink
        to={supportPaths.ticket(ticket.id)}
        className={css({
          display: 'block',
          px: '4',
          py: '3',
          borderWidth: '1px',
          borderRadius: 'lg',
          transition: 'background 0.15s',
          _hover: { bg: 'bg.subtle', textDecoration: 'none' },
          focusRing: 'outside',
        })}
      >
        <Flex justify="space-between" align="flex-start" gap="3">
          <Text fontWeight="medium" overflowWrap="anywhere" minW="0">
            {ticket.subject}
          </Text>
          <TicketStatusBadge status={ticket.status} />
        </Flex>
        <Text fontSize="sm" color="fg.muted" mt="1">
          {isOneOf(TICKET_CATEGORIES, ticket.category) ? CATEGORY_TEXT[ticket.category]() : ticket.category}
          {updatedAt && (
            <>
              {' · '}
              <time dateTime={updatedAt}>{m['support.tickets.updatedAt']({ time: formatDateTime(updatedAt) })}</time>
            </>
          )}
        </Text>
      </RouterLink>
    </Box>
  );
}

/** 'Yêu cầu của tôi': the player's tickets, each with its status, opening its page. */
export function TicketList() {
  const tickets = useTickets();

  if (tickets.isPending) return <LoadingText>{m['support.tickets.loading']()}</LoadingText>;
  if (tickets.isError) {
    return (
      <LoadFailed
        title={m['support.tickets.loadFailed']()}
        error={tickets.error}
        retrying={tickets.isFetching}
        onRetry={() => void tickets.refetch()}
      />
    );
  }
  if (tickets.data.length === 0) return <Text color="fg.muted">{m['support.tickets.empty']()}</Text>;
  return (
    <Stack as="ul" gap="2" listStyle="none" aria-label={m['support.tickets.title']()}>
      {[...tickets.data].sort(byActivity).map((ticket) => (
        <TicketItem key={ticket.id} ticket={ticket} />
      ))}
    </Stack>
  );
}
