import type * as CaptchaModule from '@/hooks/use-captcha';
import { captchaTokenFor } from '@/testing/mocks/handlers';

type CaptchaAction = CaptchaModule.CaptchaAction;

/**
 * A stand-in for reCAPTCHA: whether it has loaded, the token it hands out (by default
 * `captcha:{action}`, which the fake server accepts for that action only) and the actions it
 * was asked for. A test file installs it with
 *
 *   vi.mock('@/hooks/use-captcha', async (importOriginal) =>
 *     (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()));
 *
 * and calls `captchaStub.reset()` before each test.
 */
export const captchaStub = {
  loaded: true,
  /** Overrides the token handed out, e.g. with one for another action. */
  token: null as string | null,
  actions: [] as CaptchaAction[],
  reset() {
    captchaStub.loaded = true;
    captchaStub.token = null;
    captchaStub.actions = [];
  },
};

export function stubCaptcha(actual: typeof CaptchaModule): typeof CaptchaModule {
  return {
    ...actual,
    useCaptcha: () => ({
      loaded: captchaStub.loaded,
      execute: (action: CaptchaAction) => {
        if (!captchaStub.loaded) return Promise.reject(new actual.CaptchaNotLoadedError());
        captchaStub.actions.push(action);
        return Promise.resolve(captchaStub.token ?? captchaTokenFor(action));
      },
    }),
  };
}
