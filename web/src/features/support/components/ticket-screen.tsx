import { ArrowLeft } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Box, Flex, Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { MissingItem } from '@/components/feedback/missing-item';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import { Separator } from '@/components/ui/separator';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { toApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { TicketBody } from '@/types/api-schema';

import { useTicket } from '../api/get-ticket';
import { supportPaths } from '../config/paths';
import { CATEGORY_TEXT, isOneOf, TICKET_CATEGORIES } from '../utils/ticket-text';

import { AnswerForm } from './answer-form';
import { Conversation } from './conversation';
import { TicketStatusBadge } from './ticket-status-badge';

/** The ticket's category, when it was opened and the transaction it is about (with its receipt). */
function TicketFacts({ ticket }: { ticket: TicketBody['ticket'] }) {
  return (
    <Stack gap="1" fontSize="sm" color="fg.muted">
      <Text>
        {isOneOf(TICKET_CATEGORIES, ticket.category) ? CATEGORY_TEXT[ticket.category]() : ticket.category}
        {ticket.createdAt && (
          <>
            {' · '}
            <time dateTime={ticket.createdAt}>
              {m['support.ticket.createdAt']({ time: formatDateTime(ticket.createdAt) })}
            </time>
          </>
        )}
      </Text>
      {ticket.transactionId && (
        <Flex columnGap="2" wrap="wrap" align="center">
          <Text>
            {m['support.ticket.transaction']()}:{' '}
            <Text as="span" fontFamily="mono" fontSize="xs" overflowWrap="anywhere">
              {ticket.transactionId}
            </Text>
          </Text>
          <Link asChild color="brand.fg" fontWeight="medium" whiteSpace="nowrap">
            <RouterLink to={paths.transactionReceipt(ticket.transactionId)}>
              {m['support.ticket.viewReceipt']()}
            </RouterLink>
          </Link>
        </Flex>
      )}
    </Stack>
  );
}

/**
 * /support/tickets/:id: a ticket of the player's, its conversation with support, and their
 * answer while it is not closed. A ticket that is none of theirs says it was not found.
 */
export function TicketScreen({ id }: { id: string }) {
  const ticket = useTicket(id);
  const notFound = ticket.isError && toApiError(ticket.error).status === 404;
  const data = ticket.data;

  return (
    <Box maxW="3xl" mx="auto">
      <Link asChild fontSize="sm" color="fg.muted" mb="3">
        <RouterLink to={supportPaths.home}>
          <ArrowLeft size={16} aria-hidden />
          {m['support.ticket.back']()}
        </RouterLink>
      </Link>
      {data ? (
        <>
          <PageHeader
            title={
              <Box as="span" overflowWrap="anywhere">
                {data.ticket.subject}
              </Box>
            }
            adornment={<TicketStatusBadge status={data.ticket.status} />}
          />
          <ContentCard p={{ base: '4', md: '6' }}>
            <TicketFacts ticket={data.ticket} />
            <Separator my="5" />
            <Conversation messages={data.messages} />
            <Separator my="6" />
            {data.ticket.status === 'closed' ? (
              <Alert.Root status="info" borderRadius="lg" role="status">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Description>{m['support.ticket.closed']()}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
            ) : (
              <AnswerForm ticketId={data.ticket.id} />
            )}
          </ContentCard>
        </>
      ) : (
        <ContentCard p={{ base: '4', md: '6' }} mt="3">
          {ticket.isPending && <LoadingText>{m['support.ticket.loading']()}</LoadingText>}
          {notFound && (
            <MissingItem
              title={m['support.ticket.notFound']()}
              hint={m['support.ticket.notFoundHint']()}
              back={{ label: m['support.ticket.back'](), to: supportPaths.home }}
            />
          )}
          {ticket.isError && !notFound && (
            <LoadFailed
              title={m['support.ticket.loadFailed']()}
              error={ticket.error}
              retrying={ticket.isFetching}
              onRetry={() => void ticket.refetch()}
            />
          )}
        </ContentCard>
      )}
    </Box>
  );
}
