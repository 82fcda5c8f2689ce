import { ChakraProvider } from '@chakra-ui/react';
import { useEffect, type ReactNode } from 'react';

import { system } from './theme';
import { ensureColorMode } from './use-color-mode';

/** Chakra's styles, for the screens not yet drawn with Panda (panda.config.ts); the colour mode. */
export function UiProvider({ children }: { children: ReactNode }) {
  useEffect(ensureColorMode, []);
  return <ChakraProvider value={system}>{children}</ChakraProvider>;
}
