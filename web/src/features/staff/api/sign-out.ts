import { useMutation, useQueryClient } from '@tanstack/react-query';

import { orOnStatus } from '@/lib/api-client';
import { browser } from '@/lib/browser';

import { staffPaths } from '../config/paths';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

/** POST /staff/auth/sign-out (204); a 401 means the session had ended already, which is as good. */
export async function staffSignOut(): Promise<void> {
  await orOnStatus(staffApi.POST('/staff/auth/sign-out'), 401, undefined);
}

/**
 * Signs out, drops what the console had loaded, then loads the sign-in page afresh, so nothing
 * the console showed stays in memory.
 */
export function useStaffSignOut({ onError }: { onError?: (error: unknown) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: staffSignOut,
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: STAFF_QUERY_KEY });
      browser.assign(staffPaths.signIn);
    },
    onError,
  });
}
