import { Box, Container, Flex } from 'styled-system/jsx';

import { SocialChat } from '@/components/chat/social-chat';
import { toaster } from '@/components/ui/toaster-store';
import { useLogout, useUser } from '@/lib/auth';
import { m } from '@/paraglide/messages';

import { AppHeader } from './app-header';
import { RouteOutlet } from './route-outlet';
import { SideNav } from './side-nav';

/**
 * The signed-in shell: header, side navigation, the section's content, and the social chat
 * widget, which loads once the page is idle (and only when configured).
 */
export function ShellLayout() {
  const { data: user } = useUser();
  const logout = useLogout({
    onError: () => toaster.error({ title: m['header.logoutFailed'](), closable: true }),
  });

  if (!user) return null;
  const onLogout = () => logout.mutate();

  return (
    <Box minH="100dvh">
      <AppHeader user={user} onLogout={onLogout} />
      <Container maxW="6xl" py={{ base: '4', md: '8' }}>
        <Flex gap={{ base: '4', md: '10' }} direction={{ base: 'column', md: 'row' }}>
          <SideNav onLogout={onLogout} loggingOut={logout.isPending} />
          <Box as="main" flex="1" minW="0">
            <RouteOutlet />
          </Box>
        </Flex>
      </Container>
      <SocialChat />
    </Box>
  );
}
