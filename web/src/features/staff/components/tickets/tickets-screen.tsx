import { useSearchParams } from 'react-router';
import { HStack, Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Separator } from '@/components/ui/separator';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import { isTicketStatus, TICKET_STATUSES, useTickets, type TicketStatus } from '../../api/get-tickets';
import { ticketStatusText } from '../../utils/ticket-texts';

import { TicketRow } from './ticket-row';

/** 'Tất cả' and one button per status, kept in the URL as ?status=…. */
function StatusTabs({
  status,
  onChange,
}: {
  status: TicketStatus | null;
  onChange: (status: TicketStatus | null) => void;
}) {
  const options = [null, ...TICKET_STATUSES] as const;
  return (
    <HStack gap="2" flexWrap="wrap" role="group" aria-label={m['staff.tickets.filter.label']()}>
      {options.map((value) => (
        <Button
          key={value ?? 'all'}
          size="sm"
          variant={status === value ? 'solid' : 'outline'}
          aria-pressed={status === value}
          onClick={() => onChange(value)}
        >
          {value ? ticketStatusText(value) : m['staff.tickets.filter.all']()}
        </Button>
      ))}
    </HStack>
  );
}

/**
 * 'Yêu cầu hỗ trợ' (every role): every player's tickets, the most recently active first, of one
 * status or all (?status=open|answered|closed), each with its player, category, subject, status
 * and last activity, and a link to its conversation.
 */
export function TicketsScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const raw = searchParams.get('status') ?? '';
  const status = isTicketStatus(raw) ? raw : null;
  const tickets = useTickets(status);

  let body;
  if (tickets.isPending) body = <LoadingText>{m['staff.tickets.loading']()}</LoadingText>;
  else if (tickets.isError) {
    body = (
      <LoadFailed
        title={m['staff.tickets.loadFailed']()}
        error={tickets.error}
        retrying={tickets.isFetching}
        onRetry={() => void tickets.refetch()}
      />
    );
  } else if (tickets.data.length === 0) {
    body = <Text color="fg.muted">{status ? m['staff.tickets.emptyFiltered']() : m['staff.tickets.empty']()}</Text>;
  } else {
    body = (
      <Stack gap="4">
        <Text fontSize="sm" color="fg.muted" role="status">
          {m['staff.tickets.count']({ count: tickets.data.length })}
        </Text>
        <Stack as="ul" aria-label={m['staff.tickets.listLabel']()} gap="3" listStyleType="none" m="0" p="0">
          {tickets.data.map((ticket) => (
            <TicketRow key={ticket.id} ticket={ticket} showPlayer />
          ))}
        </Stack>
      </Stack>
    );
  }

  return (
    <>
      <PageHeader title={m['staff.tickets.title']()} subtitle={m['staff.tickets.subtitle']()} />
      <ContentCard p={{ base: '3', md: '6' }}>
        <StatusTabs status={status} onChange={(next) => setSearchParams(next ? { status: next } : {})} />
        <Separator my={{ base: '4', md: '6' }} />
        {body}
      </ContentCard>
    </>
  );
}
