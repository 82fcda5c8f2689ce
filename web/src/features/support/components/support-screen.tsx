import { MessageCircle } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { matchPath, Navigate, useLocation } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { PageFallback } from '@/components/feedback/page-fallback';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { externalLinks } from '@/config/links';
import { paths } from '@/config/paths';
import { ProtectedRoute, useUser } from '@/lib/auth';
import { m } from '@/paraglide/messages';

/**
 * A ticket's page, as config/paths.ts builds its links. Matched here (the route table has one
 * route, /support/*): a route of its own would join the router's code that every page loads.
 */
const TICKET_PATTERN = `${paths.support}/tickets/:id`;

/*
 * The ticket centre and a ticket's page load only for a signed-in player: a visitor's /support
 * stays as light as it was. This module imports nothing of the feature's that they import too
 * (hence the pattern above rather than config/paths.ts): such a module would join this one's
 * chunk, which the route table would then reach through a wrapper, in the code every page loads.
 */
const TicketCentre = lazy(async () => ({ default: (await import('./ticket-pages')).TicketCentre }));
const TicketScreen = lazy(async () => ({ default: (await import('./ticket-pages')).TicketScreen }));

/** The spec's page: the support centre is in development, and the fanpage's Messenger. */
function SupportIntro() {
  return (
    <>
      <PageHeader title={m['support.title']()} />
      <Stack gap="4" align="flex-start">
        <Text>{m['support.inDevelopment']()}</Text>
        <Text color="fg.muted">{m['support.contact']()}</Text>
        <Button asChild>
          <a href={externalLinks.messenger} target="_blank" rel="noopener noreferrer">
            <MessageCircle aria-hidden />
            {m['support.messenger']()}
          </a>
        </Button>
      </Stack>
    </>
  );
}

/**
 * /support: the spec's page for everyone; below it, for a signed-in player, their tickets and
 * the form of a new one. Until the server has said whether the visitor is signed in, the page
 * fallback shows, so that neither layout gives way to the other.
 */
function SupportHome() {
  const user = useUser();
  if (user.isPending) return <PageFallback />;
  if (!user.data) {
    return (
      <ContentCard maxW="2xl" mx="auto">
        <SupportIntro />
      </ContentCard>
    );
  }
  return (
    <Stack gap="6" maxW="5xl" mx="auto">
      <ContentCard>
        <SupportIntro />
      </ContentCard>
      <Suspense fallback={<PageFallback />}>
        <TicketCentre />
      </Suspense>
    </Stack>
  );
}

/**
 * The support centre's pages (/support/*): /support, and a ticket's page, for its signed-in
 * player only (a visitor is sent to sign in, and back).
 */
export function SupportScreen() {
  const { pathname } = useLocation();
  if (matchPath(paths.support, pathname)) return <SupportHome />;
  const ticketId = matchPath(TICKET_PATTERN, pathname)?.params.id;
  // Any other path under /support (/support/tickets without an id, say) is the support page's.
  if (!ticketId) return <Navigate to={paths.support} replace />;
  return (
    <ProtectedRoute>
      <Suspense fallback={<PageFallback />}>
        <TicketScreen key={ticketId} id={ticketId} />
      </Suspense>
    </ProtectedRoute>
  );
}
