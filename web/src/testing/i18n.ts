import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import { i18nOptions } from '@/lib/i18n';

import translation from '../../public/locales/vi-VN.json';

/** The app's i18next set-up with the locale file bundled in, so tests make no request for it. */
export function initTestI18n() {
  return i18n.use(initReactI18next).init({
    ...i18nOptions,
    initAsync: false,
    resources: { 'vi-VN': { translation } },
  });
}
