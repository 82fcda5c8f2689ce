import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { CaptchaNotLoadedError, DEV_CAPTCHA_TOKEN, useCaptcha } from '@/hooks/use-captcha';

const scriptFor = (siteKey: string) =>
  document.head.querySelector<HTMLScriptElement>(
    `script[src="https://www.google.com/recaptcha/api.js?render=${siteKey}"]`,
  );

afterEach(() => {
  delete window.grecaptcha;
  for (const script of document.head.querySelectorAll('script[src*="recaptcha"]')) script.remove();
});

describe('useCaptcha', () => {
  it('without a site key hands out the development token and loads nothing', async () => {
    const { result } = renderHook(() => useCaptcha(''));
    expect(result.current.loaded).toBe(true);
    await expect(result.current.execute('registerFormSubmit')).resolves.toBe(DEV_CAPTCHA_TOKEN);
    expect(document.head.querySelector('script[src*="recaptcha"]')).toBeNull();
  });

  it('with a site key loads reCAPTCHA v3 and asks it for a token per action', async () => {
    const { result } = renderHook(() => useCaptcha('site-key-1'));
    const script = scriptFor('site-key-1');
    expect(script).not.toBeNull();
    expect(result.current.loaded).toBe(false);
    await expect(result.current.execute('registerFormSubmit')).rejects.toBeInstanceOf(CaptchaNotLoadedError);

    const execute = vi.fn(() => Promise.resolve('token-1'));
    window.grecaptcha = { ready: (callback) => callback(), execute };
    act(() => {
      script?.dispatchEvent(new Event('load'));
    });

    await waitFor(() => expect(result.current.loaded).toBe(true));
    await expect(result.current.execute('registerFormSubmit')).resolves.toBe('token-1');
    expect(execute).toHaveBeenCalledWith('site-key-1', { action: 'registerFormSubmit' });
  });

  it('adds the script once however many forms use it', () => {
    renderHook(() => useCaptcha('site-key-2'));
    renderHook(() => useCaptcha('site-key-2'));
    expect(document.head.querySelectorAll('script[src*="site-key-2"]')).toHaveLength(1);
  });

  it('stays not loaded when the script fails', async () => {
    const { result } = renderHook(() => useCaptcha('site-key-3'));
    act(() => {
      scriptFor('site-key-3')?.dispatchEvent(new Event('error'));
    });
    await waitFor(() => expect(scriptFor('site-key-3')).toBeNull());
    expect(result.current.loaded).toBe(false);
    await expect(result.current.execute('registerFormSubmit')).rejects.toBeInstanceOf(CaptchaNotLoadedError);
  });
});
