import type { ReactNode } from 'react';
import { Box, Container, Flex } from 'styled-system/jsx';

import { toaster } from '@/components/ui/toaster-store';
import { m } from '@/paraglide/messages';

import { useStaffMe } from '../api/get-staff-me';
import { useStaffSignOut } from '../api/sign-out';
import { navItemsFor } from '../config/nav-items';

import { ReauthDialog } from './reauth-dialog';
import { StaffHeader } from './staff-header';
import { StaffNav } from './staff-nav';

/**
 * The signed-in console: header, the sections the member's role is shown, the page, and the
 * 'Xác thực lại' dialog that any console call needing re-authentication opens.
 */
export function StaffLayout({ children }: { children: ReactNode }) {
  const { data: me } = useStaffMe();
  const signOut = useStaffSignOut({
    onError: () => toaster.error({ title: m['staff.header.signOutFailed'](), closable: true }),
  });

  if (!me) return null;

  return (
    <Box minH="100dvh">
      <StaffHeader me={me} onSignOut={() => signOut.mutate()} signingOut={signOut.isPending} />
      <Container maxW="6xl" py={{ base: '4', md: '8' }}>
        <Flex gap={{ base: '4', md: '10' }} direction={{ base: 'column', md: 'row' }}>
          <StaffNav items={navItemsFor(me.role)} />
          <Box as="main" flex="1" minW="0">
            {children}
          </Box>
        </Flex>
      </Container>
      <ReauthDialog />
    </Box>
  );
}
