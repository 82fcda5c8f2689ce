import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api } from '@/lib/api-client';
import { getCsrfCookie, userQueryOptions } from '@/lib/auth';

/** Messages are locale keys; the form translates them. */
export const loginInputSchema = z.object({
  username: z
    .string()
    .min(1, 'auth.login.validation.usernameRequired')
    .min(4, 'auth.login.validation.usernameMin'),
  password: z.string().min(1, 'auth.login.validation.passwordRequired'),
  remember: z.boolean(),
});

export type LoginInput = z.infer<typeof loginInputSchema>;

export async function login(input: LoginInput): Promise<void> {
  const body = loginInputSchema.parse(input);
  await getCsrfCookie();
  await api.post('/auth/login', body);
}

/**
 * Signs in, then reloads the current user; the sign-in route's guard then sends the user
 * back to where they were going.
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: () => queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }),
  });
}
