import { useEffect, type ReactNode } from 'react';

import { ensureColorMode } from './use-color-mode';

/** The colour mode on <html>; the styles themselves are static CSS (panda.config.ts). */
export function UiProvider({ children }: { children: ReactNode }) {
  useEffect(ensureColorMode, []);
  return children;
}
