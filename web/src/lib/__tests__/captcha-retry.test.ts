import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';
import { retryWithCaptchaWhenThrottled } from '@/lib/captcha-retry';

const throttled = new ApiError('Bạn thao tác quá nhanh, hãy thử lại sau ít phút.', { status: 429 });

describe('retryWithCaptchaWhenThrottled', () => {
  it('sends once, without a token, when the first answer is not a 429', async () => {
    const send = vi.fn((_token?: string) => Promise.resolve('ok'));
    const getToken = vi.fn(() => Promise.resolve('token'));
    await expect(retryWithCaptchaWhenThrottled(send, getToken)).resolves.toBe('ok');
    expect(send.mock.calls).toEqual([[]]);
    expect(getToken).not.toHaveBeenCalled();

    const refused = new ApiError('Tên đăng nhập hoặc mật khẩu không chính xác.', { status: 422 });
    send.mockRejectedValueOnce(refused);
    await expect(retryWithCaptchaWhenThrottled(send, getToken)).rejects.toBe(refused);
    expect(getToken).not.toHaveBeenCalled();
  });

  it('after a 429 sends once more with the captcha token, and rejects with the second failure', async () => {
    const send = vi.fn((token?: string) => (token ? Promise.resolve('ok') : Promise.reject(throttled)));
    await expect(retryWithCaptchaWhenThrottled(send, () => Promise.resolve('token'))).resolves.toBe('ok');
    expect(send.mock.calls).toEqual([[], ['token']]);

    const again = new ApiError('again', { status: 429 });
    send.mockReset();
    send.mockRejectedValueOnce(throttled).mockRejectedValueOnce(again);
    await expect(retryWithCaptchaWhenThrottled(send, () => Promise.resolve('token'))).rejects.toBe(again);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('rejects with the 429 when there is no captcha token', async () => {
    const send = vi.fn((_token?: string) => Promise.reject(throttled));
    await expect(retryWithCaptchaWhenThrottled(send, () => Promise.resolve(null))).rejects.toBe(throttled);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
