import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { useTagManager } from '@/hooks/use-tag-manager';
import { TAG_MANAGER_SCRIPT_ID } from '@/lib/tag-manager';

const gtmScript = () => document.getElementById(TAG_MANAGER_SCRIPT_ID) as HTMLScriptElement | null;

afterEach(() => {
  gtmScript()?.remove();
  delete window.dataLayer;
});

describe('useTagManager', () => {
  it('adds nothing without a container id', async () => {
    renderHook(() => useTagManager(''));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gtmScript()).toBeNull();
    expect(window.dataLayer).toBeUndefined();
  });

  it("adds GTM's data layer and gtm.js, async, after the first render", async () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    renderHook(() => useTagManager('GTM-TEST123'));
    // The snippet's code is imported by the effect: nothing during the render itself.
    expect(gtmScript()).toBeNull();

    await vi.waitFor(() => expect(gtmScript()).not.toBeNull());
    const script = gtmScript()!;
    expect(script.src).toBe('https://www.googletagmanager.com/gtm.js?id=GTM-TEST123');
    expect(script.async).toBe(true);
    expect(script.parentElement).toBe(document.head);
    expect(window.dataLayer).toEqual([{ 'gtm.start': 1_700_000_000_000, event: 'gtm.js' }]);
  });

  it('adds it once, however often the app renders', async () => {
    const { rerender } = renderHook(() => useTagManager('GTM-TEST123'));
    await vi.waitFor(() => expect(gtmScript()).not.toBeNull());
    rerender();
    renderHook(() => useTagManager('GTM-TEST123'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.querySelectorAll(`#${TAG_MANAGER_SCRIPT_ID}`)).toHaveLength(1);
    expect(window.dataLayer).toHaveLength(1);
  });
});
