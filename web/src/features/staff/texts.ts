import { DEFAULT_LOCALE } from '@/config/constants';
import { i18n } from '@/lib/i18n';

import staff from '../../../public/locales/staff/vi-VN.json';

/**
 * The console's texts (public/locales/staff/vi-VN.json) come with its code and join the
 * default namespace under `staff.`: players never open the console, so the locale file that
 * every player's page loads before it renders does not carry them.
 */
export function addStaffTexts() {
  i18n.addResourceBundle(DEFAULT_LOCALE, 'translation', { staff }, true, true);
}
