/** The staff console's pages: a separate area of the site with its own sign-in. */
export const staffPaths = {
  home: '/staff',
  signIn: '/staff/login',
  /** The mailed enrolment link's page; the token follows in the fragment (`#…`). */
  enrol: '/staff/enrol',
  members: '/staff/staff',
  players: '/staff/players',
  player: '/staff/players/:id',
  tickets: '/staff/tickets',
  ticket: '/staff/tickets/:id',
  transfers: '/staff/transfers',
  adjustments: '/staff/adjustments',
  audit: '/staff/audit',
} as const;

/**
 * A player's or a ticket's page: the pattern of `staffPaths` with its id. Written out rather
 * than with react-router's generatePath, which no other page uses and which would otherwise
 * join the router's chunk that /login loads.
 */
export const playerPath = (id: string) => `${staffPaths.players}/${encodeURIComponent(id)}`;
export const ticketPath = (id: string) => `${staffPaths.tickets}/${encodeURIComponent(id)}`;
