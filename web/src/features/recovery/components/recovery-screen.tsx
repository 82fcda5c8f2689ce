import { KeyRound, UserSearch, type LucideIcon } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Box, Stack } from 'styled-system/jsx';
import { linkOverlay } from 'styled-system/patterns';

import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

import { RecoveryCard } from './recovery-card';

function Option({
  to,
  icon: Icon,
  title,
  description,
}: {
  to: string;
  icon: LucideIcon;
  title: string;
  description: string;
}) {
  return (
    <Box
      position="relative"
      display="flex"
      gap="4"
      alignItems="center"
      p="4"
      borderWidth="1px"
      borderColor="border"
      borderRadius="xl"
      transition="border-color 0.15s, background 0.15s"
      _hover={{ borderColor: 'brand.solid', bg: 'brand.subtle' }}
    >
      <Icon size={24} aria-hidden />
      <Stack gap="0.5">
        <RouterLink to={to} className={linkOverlay({ position: 'static', fontWeight: 'semibold' })}>
          {title}
        </RouterLink>
        <Text fontSize="sm" color="fg.muted">
          {description}
        </Text>
      </Stack>
    </Box>
  );
}

export function RecoveryScreen() {
  return (
    <RecoveryCard title={m['recovery.title']()} subtitle={m['recovery.subtitle']()}>
      <Stack gap="3">
        <Option
          to={paths.forgotUsername}
          icon={UserSearch}
          title={m['recovery.forgotUsername.title']()}
          description={m['recovery.forgotUsername.description']()}
        />
        <Option
          to={paths.forgotPassword}
          icon={KeyRound}
          title={m['recovery.forgotPassword.title']()}
          description={m['recovery.forgotPassword.description']()}
        />
      </Stack>
    </RecoveryCard>
  );
}
