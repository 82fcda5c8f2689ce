import {
  buildTransactionHistory,
  buildUser,
  EMAIL_VERIFICATION_TOKEN,
  PASSWORD_RESET_TOKEN,
  TEST_PASSWORD,
} from '../data';

/**
 * The fake server's state: one account, whether this browser holds a session for it, the
 * account's transactions (newest first: GET /payment/transaction-history answers the first 10,
 * GET /transactions pages through all of them), and its email
 * verification (the one unused token, when a mail was last sent) and recovery (the reset
 * link's token and what the recovery requests asked for).
 */
export const db = {
  user: buildUser(),
  /** The account's password, as POST /auth/login checks it. */
  password: TEST_PASSWORD,
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
  recovery: {
    /** The single-use token of the mailed reset link; null once used. */
    resetToken: PASSWORD_RESET_TOKEN as string | null,
    /** The tokens GET /auth/reset-password/{token} was asked about, oldest first. */
    checks: [] as string[],
    /** The bodies POST /auth/reset-password/send-email and /auth/recover-username accepted. */
    resetEmails: [] as { username: string; gReCaptchaToken: string }[],
    usernameEmails: [] as { email: string; gReCaptchaToken: string }[],
  },
  /** Every request the handlers saw, as "METHOD /path", oldest first. */
  requests: [] as string[],
};

export function resetDb() {
  db.user = buildUser();
  db.password = TEST_PASSWORD;
  db.transactions = buildTransactionHistory();
  db.signedIn = false;
  db.xsrfToken = 'test-xsrf-token';
  db.emailVerification = { token: EMAIL_VERIFICATION_TOKEN, sentAt: null, attempts: [] };
  db.recovery = { resetToken: PASSWORD_RESET_TOKEN, checks: [], resetEmails: [], usernameEmails: [] };
  db.requests = [];
}
