import { vi } from 'vitest';

/**
 * Answers media queries as a viewport this wide would (jsdom's own answer is "no" to every
 * query). Screens pick their layout from the viewport on mount, so call this before rendering.
 */
export function viewportWidth(width: number) {
  const toPx = (length: string) => parseFloat(length) * (/r?em$/.test(length) ? 16 : 1);
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const min = /min-width:\s*([\d.]+[a-z]*)/.exec(query)?.[1];
    const max = /max-width:\s*([\d.]+[a-z]*)/.exec(query)?.[1];
    return {
      matches: (!min || width >= toPx(min)) && (!max || width <= toPx(max)),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    };
  });
}
