import { buildUser } from '../data';

/** The fake server's state: one account, and whether this browser holds a session for it. */
export const db = {
  user: buildUser(),
  signedIn: false,
  xsrfToken: 'test-xsrf-token',
  /** Every request the handlers saw, as "METHOD /path", oldest first. */
  requests: [] as string[],
};

export function resetDb() {
  db.user = buildUser();
  db.signedIn = false;
  db.xsrfToken = 'test-xsrf-token';
  db.requests = [];
}
