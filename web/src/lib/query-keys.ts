/**
 * Query keys that more than one feature needs: a feature that changes the data invalidates the
 * key that another feature reads it under (features do not import each other).
 */

/**
 * GET /payment/transaction-history: read by /transactions, changed by every top-up. It also
 * prefixes the keys of the full history's pages and of the receipts (GET /transactions…), so
 * that invalidating it after a top-up refreshes every view of the history.
 */
export const TRANSACTION_HISTORY_QUERY_KEY = ['transactions', 'history'] as const;
