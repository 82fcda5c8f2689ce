import type { TFunction } from 'i18next';
import type { FieldError } from 'react-hook-form';

import type { SupportValidationKey } from '../api/schemas';

/** A field's message: the server's as it sent it, else the schema's locale key in words. */
export function fieldMessage(t: TFunction, error: FieldError | undefined): string | undefined {
  if (!error?.message) return undefined;
  if (error.type === 'server') return error.message;
  return t(error.message as SupportValidationKey);
}
