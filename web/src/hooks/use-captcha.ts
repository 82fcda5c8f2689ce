import { useCallback, useEffect, useState } from 'react';

import { env } from '@/config/env';

/**
 * The spec's captcha actions (section 5), and those the gateway asks for once a password
 * attempt is throttled (sign-in and password change, see `retryWithCaptchaWhenThrottled`).
 */
export type CaptchaAction =
  | 'registerFormSubmit'
  | 'loginFormSubmit'
  | 'changePasswordFormSubmit'
  | 'cardRechargeFormSubmit'
  | 'coinRechargeFormSubmit'
  | 'giftcodeFormSubmit'
  | 'forgotPasswordFormSubmit'
  | 'forgotUsernameFormSubmit'
  | 'changeEmailFormSubmit';

/** Sent when no site key is configured; the gateway's development verifier accepts exactly this. */
export const DEV_CAPTCHA_TOKEN = 'dev-captcha';

type Grecaptcha = {
  ready: (callback: () => void) => void;
  execute: (siteKey: string, options: { action: string }) => PromiseLike<string>;
};

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

export class CaptchaNotLoadedError extends Error {
  constructor() {
    super('The captcha is not loaded');
    this.name = 'CaptchaNotLoadedError';
  }
}

export const recaptchaScriptUrl = (siteKey: string) =>
  `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;

const loads = new Map<string, Promise<void>>();

/** Adds reCAPTCHA v3's script once per site key; resolves when `grecaptcha` is ready. */
export function loadRecaptcha(siteKey: string): Promise<void> {
  const pending = loads.get(siteKey);
  if (pending) return pending;
  const load = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = recaptchaScriptUrl(siteKey);
    script.async = true;
    script.defer = true;
    script.onload = () => {
      if (window.grecaptcha) window.grecaptcha.ready(resolve);
      else reject(new CaptchaNotLoadedError());
    };
    script.onerror = () => {
      // A later mount may try again (e.g. after the connection came back).
      loads.delete(siteKey);
      script.remove();
      reject(new CaptchaNotLoadedError());
    };
    document.head.appendChild(script);
  });
  loads.set(siteKey, load);
  return load;
}

/**
 * Captcha tokens for the spec's form actions. With a site key, reCAPTCHA v3 is loaded and asked
 * for a token per action; without one the development token is returned. Until the captcha has
 * loaded `loaded` is false and `execute` rejects with `CaptchaNotLoadedError`: forms then do
 * nothing on submit (spec section 5).
 */
export function useCaptcha(siteKey: string = env.RECAPTCHA_SITE_KEY) {
  const [loadedKey, setLoadedKey] = useState<string | null>(null);
  const loaded = !siteKey || loadedKey === siteKey;

  useEffect(() => {
    if (!siteKey) return;
    let active = true;
    loadRecaptcha(siteKey).then(
      () => {
        if (active) setLoadedKey(siteKey);
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [siteKey]);

  const execute = useCallback(
    async (action: CaptchaAction): Promise<string> => {
      if (!siteKey) return DEV_CAPTCHA_TOKEN;
      const grecaptcha = window.grecaptcha;
      if (!loaded || !grecaptcha) throw new CaptchaNotLoadedError();
      return grecaptcha.execute(siteKey, { action });
    },
    [siteKey, loaded],
  );

  return { loaded, execute };
}
