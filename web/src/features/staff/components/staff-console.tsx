import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ComponentType } from 'react';
import { matchPath, useLocation } from 'react-router';

import { STAFF_ME_QUERY_KEY } from '../api/get-staff-me';
import { setStaffUnauthorizedHandler } from '../api/staff-client';
import { staffPaths } from '../config/paths';

import { AdjustmentsScreen } from './adjustments/adjustments-screen';
import { AuditScreen } from './audit-screen';
import { EnrolScreen } from './enrol-screen';
import { HomeScreen } from './home-screen';
import { MembersScreen } from './members-screen';
import { PlayerScreen } from './players/player-screen';
import { PlayersScreen } from './players/players-screen';
import { SignInScreen } from './sign-in-screen';
import { StaffGuestRoute, StaffProtectedRoute } from './staff-guards';
import { StaffLayout } from './staff-layout';
import { StaffNotFound } from './staff-not-found';
import { StaffPublicLayout } from './staff-public-layout';
import { TicketScreen } from './tickets/ticket-screen';
import { TicketsScreen } from './tickets/tickets-screen';
import { TransfersScreen } from './transfers/transfers-screen';

/**
 * The console's pages behind its sign-in, by path: a new page is a line here and its entry in
 * config/nav-items.ts. Matched here rather than by react-router's <Routes>, which no page of
 * the player's uses: it would join the router's code that every page loads.
 */
const PAGES: readonly { path: string; Page: ComponentType }[] = [
  { path: staffPaths.home, Page: HomeScreen },
  { path: staffPaths.members, Page: MembersScreen },
  { path: staffPaths.players, Page: PlayersScreen },
  { path: staffPaths.player, Page: PlayerScreen },
  { path: staffPaths.tickets, Page: TicketsScreen },
  { path: staffPaths.ticket, Page: TicketScreen },
  { path: staffPaths.transfers, Page: TransfersScreen },
  { path: staffPaths.adjustments, Page: AdjustmentsScreen },
  { path: staffPaths.audit, Page: AuditScreen },
];

/**
 * The staff console at /staff/*: the app's route table loads this module, with its pages and
 * texts, only when a /staff page is opened, so none of it reaches a player's pages. Its own
 * sign-in page, the enrolment link's page (no session needed), and the pages above inside the
 * console's layout.
 */
export function StaffConsole() {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();

  // A 401 from any console call means the session ended: reading /staff/me again lets the guard react.
  useEffect(() => {
    setStaffUnauthorizedHandler(() => void queryClient.invalidateQueries({ queryKey: STAFF_ME_QUERY_KEY }));
    return () => setStaffUnauthorizedHandler(undefined);
  }, [queryClient]);

  if (matchPath(staffPaths.signIn, pathname)) {
    return (
      <StaffGuestRoute>
        <StaffPublicLayout>
          <SignInScreen />
        </StaffPublicLayout>
      </StaffGuestRoute>
    );
  }
  if (matchPath(staffPaths.enrol, pathname)) {
    return (
      <StaffPublicLayout>
        <EnrolScreen />
      </StaffPublicLayout>
    );
  }
  const Page = PAGES.find(({ path }) => matchPath(path, pathname))?.Page ?? StaffNotFound;
  return (
    <StaffProtectedRoute>
      <StaffLayout>
        <Page />
      </StaffLayout>
    </StaffProtectedRoute>
  );
}
