export const REQUEST_TIMEOUT_MS = 15_000;

/** The header switches to its scrolled style once the window has scrolled this far. */
export const HEADER_SCROLL_THRESHOLD_PX = 85;

export const LOCALES = ['vi-VN'] as const;
export const DEFAULT_LOCALE = 'vi-VN';

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
