import { LogOut } from 'lucide-react';
import { Box, Container, HStack, Spacer, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { ColorModeButton } from '@/components/ui/color-mode';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';
import type { StaffMeBody } from '@/types/api-schema';

import { roleLabel } from '../utils/roles';

import { ConsoleBrand } from './console-brand';
import { RoleBadge } from './role-badge';

type StaffHeaderProps = {
  me: StaffMeBody;
  onSignOut: () => void;
  signingOut: boolean;
};

/** The console's header: its brand, who is signed in and in which role, and 'Đăng xuất'. */
export function StaffHeader({ me, onSignOut, signingOut }: StaffHeaderProps) {
  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg.panel"
      borderBottomWidth="1px"
      borderColor="border"
    >
      <Container maxW="6xl" h="16" display="flex" alignItems="center" gap={{ base: '2', md: '4' }}>
        <ConsoleBrand />
        <Spacer />
        <Stack
          gap="0.5"
          align="flex-end"
          minW="0"
          aria-label={m['staff.header.member']({ username: me.username, role: roleLabel(me.role) })}
          role="group"
        >
          <Text fontSize="sm" fontWeight="semibold" lineHeight="short" truncate maxW={{ base: '32', sm: '48' }}>
            {me.username}
          </Text>
          <RoleBadge role={me.role} size="sm" />
        </Stack>
        <HStack gap="1" flexShrink={0}>
          <ColorModeButton />
          <Button
            variant="ghost"
            size="sm"
            px={{ base: '2', sm: '3' }}
            loading={signingOut}
            onClick={onSignOut}
            title={m['staff.header.signOut']()}
            aria-label={m['staff.header.signOut']()}
          >
            <LogOut aria-hidden />
            <Text as="span" hideBelow="sm">
              {m['staff.header.signOut']()}
            </Text>
          </Button>
        </HStack>
      </Container>
    </Box>
  );
}
