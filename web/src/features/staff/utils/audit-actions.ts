import type { TFunction } from 'i18next';

/** The actions the services record today, and their texts under `staff.audit.actions`. */
const ACTION_TEXTS = {
  'staff.sign_in': 'signIn',
  'staff.sign_in_refused': 'signInRefused',
  'staff.reauthenticate': 'reauthenticate',
  'staff.reauthenticate_refused': 'reauthenticateRefused',
  'staff.sign_out': 'signOut',
  'staff.create': 'createStaff',
  'staff.update': 'updateStaff',
  'staff.enrol': 'enrol',
  'staff.reset_credentials': 'resetCredentials',
} as const;

/** What an action was, in Vietnamese; null for one the console has no text for yet (shown by its code). */
export function actionLabel(t: TFunction, action: string): string | null {
  const key = (ACTION_TEXTS as Record<string, (typeof ACTION_TEXTS)[keyof typeof ACTION_TEXTS]>)[action];
  return key ? t(`staff.audit.actions.${key}`) : null;
}
