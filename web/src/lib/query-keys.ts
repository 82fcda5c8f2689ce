/**
 * Query keys that more than one feature needs: a feature that changes the data invalidates the
 * key that another feature reads it under (features do not import each other).
 */

/** GET /payment/transaction-history: read by /transactions, changed by every top-up. */
export const TRANSACTION_HISTORY_QUERY_KEY = ['transactions', 'history'] as const;
