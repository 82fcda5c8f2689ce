import { useCallback } from 'react';

import { toaster } from '@/components/ui/toaster-store';
import { failureText } from '@/lib/failure-text';

import { isReauthGivenUp } from '../api/staff-client';

/**
 * What a failed console call says that no field of its form shows: the server's message (for a
 * 403 without `code`, the role's refusal), or null. Nothing for a call whose re-authentication
 * the member gave up themselves.
 */
export function staffFailureText(error: unknown, formFields: readonly string[] = []): string | null {
  if (!error || isReauthGivenUp(error)) return null;
  return failureText(error, formFields);
}

/** Shows a failed action's `staffFailureText` as an error toast headed `title`. */
export function useStaffFailureToast() {
  return useCallback((title: string, error: unknown) => {
    const text = staffFailureText(error);
    if (text) toaster.error({ title, description: text, closable: true });
  }, []);
}
