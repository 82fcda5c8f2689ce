import type { ReactNode } from 'react';
import { Box, Container, Flex } from 'styled-system/jsx';

import { ColorModeButton } from '@/components/ui/color-mode';

import { ConsoleBrand } from './console-brand';

/** The console's pages without a session (sign-in, enrolment): its brand, and the card. */
export function StaffPublicLayout({ children }: { children: ReactNode }) {
  return (
    <Flex direction="column" minH="100dvh">
      <Box as="header" borderBottomWidth="1px" borderColor="border">
        <Container maxW="6xl" h="16" display="flex" alignItems="center" justifyContent="space-between">
          <ConsoleBrand />
          <ColorModeButton />
        </Container>
      </Box>
      <Box as="main" flex="1" py={{ base: '8', md: '14' }}>
        <Container maxW="6xl">
          {children}
        </Container>
      </Box>
    </Flex>
  );
}
