import i18n, { type InitOptions } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';

import { DEFAULT_LOCALE, LOCALES } from '@/config/constants';

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

/** Loads the locale texts from /locales/{lng}.json (served from web/public). */
export function initI18n() {
  return i18n
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      ...i18nOptions,
      backend: { loadPath: '/locales/{{lng}}.json' },
    });
}

export { i18n };
