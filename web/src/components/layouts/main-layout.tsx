import { Box, Container, Flex } from 'styled-system/jsx';

import { Logo } from '@/components/logo';
import { ColorModeButton } from '@/components/ui/color-mode';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import { RouteOutlet } from './route-outlet';

/** The public page layout: logo linking to /, content and a footer with the copyright line. */
export function MainLayout() {
  const year = new Date().getFullYear();
  return (
    <Flex direction="column" minH="100dvh">
      <Box as="header" borderBottomWidth="1px" borderColor="border">
        <Container maxW="6xl" h="16" display="flex" alignItems="center" justifyContent="space-between">
          <Logo />
          <ColorModeButton />
        </Container>
      </Box>
      <Box as="main" flex="1" py={{ base: '8', md: '14' }}>
        <Container maxW="6xl">
          <RouteOutlet />
        </Container>
      </Box>
      <Box as="footer" borderTopWidth="1px" borderColor="border" py="6">
        <Container maxW="6xl">
          <Text fontSize="sm" color="fg.muted" textAlign="center">
            {m['app.copyright']({ year })}
          </Text>
        </Container>
      </Box>
    </Flex>
  );
}
