import 'i18next';

import type staff from '../../public/locales/staff/vi-VN.json';
import type translation from '../../public/locales/vi-VN.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      /**
       * The staff console's texts load with the console's code (features/staff/texts.ts), under
       * `staff.`, so the locale file every player's page loads does not carry them.
       */
      translation: typeof translation & { staff: typeof staff };
    };
  }
}
