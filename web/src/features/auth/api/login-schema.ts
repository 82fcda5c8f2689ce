import { zodResolver } from '@hookform/resolvers/zod';
import * as z from 'zod/mini';

import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';

/**
 * Messages are the texts the form shows. Written with zod/mini (the same checks
 * and messages as zod's chained API) because the sign-in page is the first one most visitors
 * load, and mini's functions leave out the parts of zod it does not use. The sign-in page
 * loads this module (zod and the resolver with it) only once the form has rendered, see
 * `loginResolver` in ./login.ts.
 */
export const loginInputSchema = z.object({
  username: z
    .string()
    .check(
      z.minLength(1, m['auth.login.validation.usernameRequired']()),
      z.minLength(apiLimits.LoginBody.username.minLength, m['auth.login.validation.usernameMin']()),
    ),
  password: z.string().check(z.minLength(1, m['auth.login.validation.passwordRequired']())),
  remember: z.boolean(),
});

export type LoginInput = z.infer<typeof loginInputSchema>;

export const loginSchemaResolver = zodResolver(loginInputSchema);
