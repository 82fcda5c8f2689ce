import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** A reason field's message: the server's as sent, the form's own from its text key. */
export function useReasonMessage() {
  const { t } = useTranslation();
  return (error: FieldError | undefined) => {
    if (!error?.message) return undefined;
    return error.type === 'server' ? error.message : t(error.message as 'staff.players.validation.reasonRequired');
  };
}
