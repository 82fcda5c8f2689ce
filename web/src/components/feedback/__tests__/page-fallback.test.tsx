import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PageFallback } from '@/components/feedback/page-fallback';
import { UiProvider } from '@/components/ui/provider';

const SLOW_HINT = 'Kết nối chậm, vui lòng chờ trong giây lát...';
const original = Object.getOwnPropertyDescriptor(navigator, 'connection');

function renderFallback() {
  render(
    <UiProvider>
      <PageFallback />
    </UiProvider>,
  );
}

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  if (original) Object.defineProperty(navigator, 'connection', original);
  else delete (navigator as { connection?: unknown }).connection;
});

describe('PageFallback', () => {
  it("says 'Đang tải dữ liệu...' and, after 3 s, that the connection is slow", () => {
    renderFallback();
    expect(screen.getByRole('status')).toHaveTextContent('Đang tải dữ liệu...');
    expect(screen.queryByText(SLOW_HINT)).toBeNull();

    advance(2_999);
    expect(screen.queryByText(SLOW_HINT)).toBeNull();
    advance(1);
    expect(screen.getByText(SLOW_HINT)).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent(SLOW_HINT);
  });

  it('waits 5 s before the hint on a slow connection', () => {
    Object.defineProperty(navigator, 'connection', { value: { effectiveType: '2g' }, configurable: true });
    renderFallback();
    advance(4_999);
    expect(screen.queryByText(SLOW_HINT)).toBeNull();
    advance(1);
    expect(screen.getByText(SLOW_HINT)).toBeVisible();
  });
});
