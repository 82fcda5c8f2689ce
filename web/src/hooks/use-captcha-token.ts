import { useCallback, useState } from 'react';

import { useCaptcha, type CaptchaAction } from './use-captcha';

/**
 * A captcha token for one form action, or null when there is none to send: the captcha has not
 * loaded or failed to answer. The spec's forms then do nothing on submit (section 5).
 * `pending` is true while the token is being fetched.
 */
export function useCaptchaToken(action: CaptchaAction) {
  const { loaded, execute } = useCaptcha();
  const [pending, setPending] = useState(false);

  const getToken = useCallback(async (): Promise<string | null> => {
    if (!loaded) return null;
    setPending(true);
    try {
      return await execute(action);
    } catch {
      return null;
    } finally {
      setPending(false);
    }
  }, [loaded, execute, action]);

  return { getToken, pending };
}
