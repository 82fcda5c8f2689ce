import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderApp, screen } from '@/testing/test-utils';

describe('public layout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has a logo linking to / and a footer with the current year', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-04T05:06:07Z'));

    renderApp('/support');

    await screen.findByRole('heading', { level: 1, name: 'Hỗ trợ' });
    expect(screen.getByRole('link', { name: 'Kid - Trang chủ' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('contentinfo')).toHaveTextContent('© 2031 Kid. Bảo lưu mọi quyền.');
  });
});
