export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * Caching of the player's data (spec section 9), as lib/query-client.ts maps it onto
 * react-query: a failed load is retried after `ERROR_RETRY_INTERVAL_MS` (`SLOW_…` on a slow
 * connection); focusing the window reloads a query at most once per `FOCUS_THROTTLE_MS`; an
 * answer younger than `DEDUPE_INTERVAL_MS` is reused instead of asked for again; and a first load
 * still running after `LOADING_SLOW_MS` (`SLOW_…` on a slow connection) is shown as slow.
 */
export const ERROR_RETRY_INTERVAL_MS = 5_000;
export const SLOW_ERROR_RETRY_INTERVAL_MS = 10_000;
export const FOCUS_THROTTLE_MS = 5_000;
export const DEDUPE_INTERVAL_MS = 2_000;
export const LOADING_SLOW_MS = 3_000;
export const SLOW_LOADING_SLOW_MS = 5_000;

/**
 * The Network Information API's `effectiveType`s counted as a slow connection (as is Save-Data).
 * src/boot.ts, which imports nothing, repeats this list.
 */
export const SLOW_CONNECTION_TYPES: readonly string[] = ['slow-2g', '2g', '3g'];

/** Image URLs are `{image host}/{id}/{variant}` (spec section 7); this variant unless told. */
export const DEFAULT_IMAGE_VARIANT = 'public';

/** The header switches to its scrolled style once the window has scrolled this far. */
export const HEADER_SCROLL_THRESHOLD_PX = 85;

export const LOCALES = ['vi-VN'] as const;
export const DEFAULT_LOCALE = 'vi-VN';

/** The key the chosen colour mode was always kept under (Chakra's), so no player loses theirs. */
export const COLOR_MODE_STORAGE_KEY = 'chakra-ui-color-mode';
export const DEFAULT_COLOR_MODE = 'dark';

/** Transfer QR codes (spec section 9): size in pixels and error-correction level. */
export const QR_CODE_SIZE = 144;
export const QR_CODE_LEVEL = 'L';

/** How long a 'copied' hint stays after a click-to-copy. */
export const COPIED_HINT_MS = 3_000;

/** Card face values the portal takes, in VND. */
export const CARD_VALUE_MIN = 10_000;
export const CARD_VALUE_MAX = 5_000_000;

/** How long a sent card usually takes to be processed, in seconds. */
export const CARD_PROCESSING_SECONDS = { min: 1, max: 30 } as const;

/** Transactions per page of the full history (/transactions/all; the server takes 1 to 100). */
export const HISTORY_PAGE_SIZE = 20;

/** The amount the rate line of a bank or e-wallet is shown for, in VND. */
export const TRANSFER_RATE_EXAMPLE_VND = 10_000;

/**
 * Pay partners (spec section 9, design/money.md): one top-up order of at least `thresholdVnd`
 * within `windowDays` makes a player a partner, and that order earns `activationBonusPercent`.
 * While a partner, the highest tier reached by the sum over the window applies; below the
 * lowest tier the player stops being a partner.
 */
export const PAY_PARTNER = {
  thresholdVnd: 20_000_000,
  windowDays: 28,
  activationBonusPercent: 15,
  tiers: [
    { cashValue: 20_000_000, bonusPercent: 15 },
    { cashValue: 50_000_000, bonusPercent: 20 },
    { cashValue: 100_000_000, bonusPercent: 25 },
  ],
} as const;
