import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import { i18nOptions } from '@/lib/i18n';

import staff from '../../public/locales/staff/vi-VN.json';
import translation from '../../public/locales/vi-VN.json';

/**
 * The app's i18next set-up with the locale files bundled in, so tests make no request for them
 * (the staff console's texts under `staff.`, as features/staff/texts.ts adds them).
 */
export function initTestI18n() {
  return i18n.use(initReactI18next).init({
    ...i18nOptions,
    initAsync: false,
    resources: { 'vi-VN': { translation: { ...translation, staff } } },
  });
}
