import { m } from '@/paraglide/messages';

/** The actions the services record today, and their texts. */
const ACTION_TEXTS = {
  'staff.sign_in': m['staff.audit.actions.signIn'],
  'staff.sign_in_refused': m['staff.audit.actions.signInRefused'],
  'staff.reauthenticate': m['staff.audit.actions.reauthenticate'],
  'staff.reauthenticate_refused': m['staff.audit.actions.reauthenticateRefused'],
  'staff.sign_out': m['staff.audit.actions.signOut'],
  'staff.create': m['staff.audit.actions.createStaff'],
  'staff.update': m['staff.audit.actions.updateStaff'],
  'staff.enrol': m['staff.audit.actions.enrol'],
  'staff.reset_credentials': m['staff.audit.actions.resetCredentials'],
} satisfies Record<string, () => string>;

/** What an action was, in Vietnamese; null for one the console has no text for yet (shown by its code). */
export function actionLabel(action: string): string | null {
  return Object.hasOwn(ACTION_TEXTS, action) ? ACTION_TEXTS[action as keyof typeof ACTION_TEXTS]() : null;
}
