import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

import { toApiError } from './api-client';

/**
 * On a 422, puts the server's first message for each of `fields` beside that field (as a
 * 'server' error, shown as sent) and focuses the first such field (spec section 7: a 422
 * merges the server's per-field errors into the form). Other failures are left to the screen.
 */
export function placeServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): void {
  const apiError = toApiError(error);
  if (apiError.status !== 422) return;
  let focus = true;
  for (const field of fields) {
    const message = apiError.fieldError(field);
    if (!message) continue;
    setError(field, { type: 'server', message }, { shouldFocus: focus });
    focus = false;
  }
}
