import { useId } from 'react';
import { Box } from 'styled-system/jsx';

import { ContentCard } from '@/components/layouts/content-card';
import { Heading } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import { NewTicketForm } from './new-ticket-form';
import { TicketList } from './ticket-list';

/**
 * The signed-in player's part of /support, loaded only for them: their tickets and the form of
 * a new one; side by side on a wide screen (the form first), the list first on a narrow one so
 * that a player coming back finds their tickets without scrolling past the form.
 */
export function TicketCentre() {
  const listHeading = useId();
  const formHeading = useId();
  return (
    <Box
      display="grid"
      gridTemplateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }}
      gap="6"
      alignItems="start"
    >
      <ContentCard as="section" aria-labelledby={listHeading} gridColumn={{ lg: '2' }} gridRow={{ lg: '1' }}>
        <Heading id={listHeading} as="h2" size="lg" mb="4">
          {m['support.tickets.title']()}
        </Heading>
        <TicketList />
      </ContentCard>
      <ContentCard as="section" aria-labelledby={formHeading} gridColumn={{ lg: '1' }} gridRow={{ lg: '1' }}>
        <Heading id={formHeading} as="h2" size="lg" mb="5">
          {m['support.newTicket.title']()}
        </Heading>
        <NewTicketForm />
      </ContentCard>
    </Box>
  );
}
