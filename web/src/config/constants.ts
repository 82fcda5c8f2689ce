export const REQUEST_TIMEOUT_MS = 15_000;

/** The header switches to its scrolled style once the window has scrolled this far. */
export const HEADER_SCROLL_THRESHOLD_PX = 85;

export const LOCALES = ['vi-VN'] as const;
export const DEFAULT_LOCALE = 'vi-VN';

export const COLOR_MODE_STORAGE_KEY = 'chakra-ui-color-mode';
export const DEFAULT_COLOR_MODE = 'dark';
