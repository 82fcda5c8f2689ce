import { paths } from '@/config/paths';

/**
 * The support centre's pages, for its links. The app's route table has one route for them,
 * /support/*, and the support screen matches them itself (components/support-screen.tsx).
 */
export const supportPaths = {
  home: paths.support,
  /** A ticket with its conversation. */
  ticket: (id: string) => `${paths.support}/tickets/${encodeURIComponent(id)}`,
} as const;
