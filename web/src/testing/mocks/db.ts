import { buildTransactionHistory, buildUser } from '../data';

/**
 * The fake server's state: one account, whether this browser holds a session for it, and the
 * account's transaction history as GET /payment/transaction-history returns it.
 */
export const db = {
  user: buildUser(),
  transactions: buildTransactionHistory(),
  signedIn: false,
  xsrfToken: 'test-xsrf-token',
  /** Every request the handlers saw, as "METHOD /path", oldest first. */
  requests: [] as string[],
};

export function resetDb() {
  db.user = buildUser();
  db.transactions = buildTransactionHistory();
  db.signedIn = false;
  db.xsrfToken = 'test-xsrf-token';
  db.requests = [];
}
