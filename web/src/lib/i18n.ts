import i18n, { type BackendModule, type InitOptions, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

import { DEFAULT_LOCALE, LOCALES } from '@/config/constants';

import viVnUrl from '../../public/locales/vi-VN.json?url';

export const i18nOptions = {
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  load: 'currentOnly',
  defaultNS: 'translation',
  ns: ['translation'],
  interpolation: { escapeValue: false },
  returnNull: false,
} satisfies InitOptions;

/**
 * The locale files (web/public/locales/{lng}.json), emitted by the build as hashed assets: they
 * are served precompressed and cached for good, and index.html preloads the default one so it
 * loads beside the app's code instead of after it (see `htmlPreloads` in vite.config.ts).
 */
export const localeUrls: Record<(typeof LOCALES)[number], string> = {
  'vi-VN': viVnUrl,
};

const fetchBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const url = localeUrls[language as keyof typeof localeUrls];
    if (!url) {
      callback(new Error(`no texts for the locale ${language}`), false);
      return;
    }
    fetch(url).then(
      async (response) => {
        // As i18next-http-backend did: a 5xx is worth asking again (`true`), a 4xx is not.
        if (!response.ok) {
          callback(new Error(`failed loading ${url}; status code: ${response.status}`), response.status >= 500);
          return;
        }
        try {
          callback(null, (await response.json()) as ResourceKey);
        } catch {
          callback(new Error(`failed parsing ${url} to json`), false);
        }
      },
      // No answer at all (offline, reset): ask again.
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), true),
    );
  },
};

/** Loads the locale texts and starts i18next. */
export function initI18n() {
  return i18n.use(fetchBackend).use(initReactI18next).init(i18nOptions);
}

export { i18n };
