import { buildTransactionHistory, buildUser, EMAIL_VERIFICATION_TOKEN } from '../data';

/**
 * The fake server's state: one account, whether this browser holds a session for it, the
 * account's transaction history as GET /payment/transaction-history returns it, and its email
 * verification (the one unused token, when a mail was last sent).
 */
export const db = {
  user: buildUser(),
  transactions: buildTransactionHistory(),
  signedIn: false,
  xsrfToken: 'test-xsrf-token',
  emailVerification: {
    /** The single-use token PUT /auth/email-verification accepts; null once used. */
    token: EMAIL_VERIFICATION_TOKEN as string | null,
    /** Date.now() of the last mail sent, for the one-a-minute limit. */
    sentAt: null as number | null,
    /** The tokens PUT /auth/email-verification was sent, oldest first. */
    attempts: [] as string[],
  },
  /** Every request the handlers saw, as "METHOD /path", oldest first. */
  requests: [] as string[],
};

export function resetDb() {
  db.user = buildUser();
  db.transactions = buildTransactionHistory();
  db.signedIn = false;
  db.xsrfToken = 'test-xsrf-token';
  db.emailVerification = { token: EMAIL_VERIFICATION_TOKEN, sentAt: null, attempts: [] };
  db.requests = [];
}
