import { useMutation } from '@tanstack/react-query';

import { paths } from '@/config/paths';
import { api } from '@/lib/api-client';
import { browser } from '@/lib/browser';

import { getCsrfCookie } from './csrf';

export async function logout(): Promise<void> {
  await getCsrfCookie();
  await api.POST('/auth/logout');
}

type UseLogoutOptions = {
  /** Where the browser goes once signed out; a full page load, so no state survives. */
  redirectTo?: string;
  onError?: (error: unknown) => void;
};

export function useLogout({ redirectTo = paths.login, onError }: UseLogoutOptions = {}) {
  return useMutation({
    mutationFn: logout,
    onSuccess: () => browser.assign(redirectTo),
    onError,
  });
}
