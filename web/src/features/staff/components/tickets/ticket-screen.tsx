import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { matchPath, Link as RouterLink, useLocation } from 'react-router';
import { Box, Flex, Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { MissingItem } from '@/components/feedback/missing-item';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import { Separator } from '@/components/ui/separator';
import { Text } from '@/components/ui/text';
import { toApiError } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import type { TicketSummaryBody } from '@/types/api-schema';

import { useStaffMe } from '../../api/get-staff-me';
import { useTicket } from '../../api/get-ticket';
import { playerPath, staffPaths } from '../../config/paths';
import { playerAbilities } from '../../utils/player-abilities';
import { ticketCategoryText, ticketStatusText, TICKET_STATUS_PALETTE } from '../../utils/ticket-texts';
import { formatVietnamTime } from '../../utils/time';

import { ReplyForm } from './reply-form';
import { TicketConversation } from './ticket-conversation';

function BackLink() {
  return (
    <Link asChild fontSize="sm" color="fg.muted" mb="3">
      <RouterLink to={staffPaths.tickets}>
        <ArrowLeft size={16} aria-hidden />
        {m['staff.tickets.ticket.back']()}
      </RouterLink>
    </Link>
  );
}

function FactLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex columnGap="2" rowGap="0.5" wrap="wrap" align="baseline" minW="0">
      <Text as="span" color="fg.muted" flexShrink={0}>
        {label}:
      </Text>
      {children}
    </Flex>
  );
}

/** Who opened it (a link to their page), its category, when, and the transaction it is about. */
function TicketFacts({ ticket }: { ticket: TicketSummaryBody }) {
  const playerPage = playerPath(ticket.userId);
  return (
    <Stack gap="1.5" fontSize="sm">
      <FactLine label={m['staff.tickets.ticket.player']()}>
        <Link asChild color="brand.fg" fontWeight="medium" overflowWrap="anywhere">
          <RouterLink to={playerPage}>{ticket.username}</RouterLink>
        </Link>
      </FactLine>
      <FactLine label={m['staff.tickets.ticket.category']()}>
        <Text as="span">{ticketCategoryText(ticket.category)}</Text>
      </FactLine>
      {ticket.createdAt && (
        <FactLine label={m['staff.tickets.ticket.createdAt']()}>
          <Text as="span">{formatVietnamTime(ticket.createdAt, { seconds: false })}</Text>
        </FactLine>
      )}
      {ticket.transactionId && (
        <FactLine label={m['staff.tickets.ticket.transaction']()}>
          <Text as="span" fontFamily="mono" fontSize="xs" overflowWrap="anywhere" minW="0">
            {ticket.transactionId}
          </Text>
          <Link asChild color="brand.fg" fontWeight="medium" whiteSpace="nowrap">
            <RouterLink to={`${playerPage}?${new URLSearchParams({ transaction: ticket.transactionId }).toString()}`}>
              {m['staff.tickets.ticket.openTransaction']()}
            </RouterLink>
          </Link>
        </FactLine>
      )}
    </Stack>
  );
}

/**
 * A ticket (/staff/tickets/:id, every role): the player (a link to their page), the transaction
 * it is about (a link to it in their ledger), the conversation with the player's images, and
 * for support the reply form, which may close the ticket (or reopen a closed one with a reply).
 */
export function TicketScreen() {
  const { pathname } = useLocation();
  const id = matchPath(staffPaths.ticket, pathname)?.params.id ?? '';
  const ticket = useTicket(id);
  const { data: me } = useStaffMe();
  const canReply = playerAbilities(me?.role).replyTickets;
  const notFound = ticket.isError && toApiError(ticket.error).status === 404;
  const data = ticket.data;

  if (!data) {
    return (
      <>
        <BackLink />
        <ContentCard p={{ base: '4', md: '6' }} mt="3">
          {ticket.isPending && <LoadingText>{m['staff.tickets.ticket.loading']()}</LoadingText>}
          {notFound && (
            <MissingItem
              title={m['staff.tickets.ticket.notFound']()}
              hint={m['staff.tickets.ticket.notFoundHint']()}
              back={{ label: m['staff.tickets.ticket.back'](), to: staffPaths.tickets }}
            />
          )}
          {ticket.isError && !notFound && (
            <LoadFailed
              title={m['staff.tickets.ticket.loadFailed']()}
              error={ticket.error}
              retrying={ticket.isFetching}
              onRetry={() => void ticket.refetch()}
            />
          )}
        </ContentCard>
      </>
    );
  }

  return (
    <Box maxW="3xl">
      <BackLink />
      <PageHeader
        title={
          <Box as="span" overflowWrap="anywhere">
            {data.ticket.subject}
          </Box>
        }
        adornment={
          <Badge
            colorPalette={TICKET_STATUS_PALETTE[data.ticket.status] ?? 'gray'}
            variant="subtle"
            size="md"
            data-testid="ticket-status"
          >
            {ticketStatusText(data.ticket.status)}
          </Badge>
        }
      />
      <ContentCard p={{ base: '4', md: '6' }}>
        <TicketFacts ticket={data.ticket} />
        <Separator my="5" />
        <TicketConversation messages={data.messages} player={data.ticket.username} />
        <Separator my="6" />
        {canReply ? (
          <ReplyForm ticketId={data.ticket.id} />
        ) : (
          <Alert.Root status="info" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Description>{m['staff.tickets.readOnly']()}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
      </ContentCard>
    </Box>
  );
}
