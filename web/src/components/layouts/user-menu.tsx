import { ChevronDown, Download, LogOut, Newspaper, Settings, LifeBuoy } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Box, HStack } from 'styled-system/jsx';

import { PayPartnerTick } from '@/components/pay-partner-tick';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Menu, Portal } from '@/components/ui/menu';
import { Text } from '@/components/ui/text';
import { externalLinks } from '@/config/links';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

type UserMenuProps = {
  user: User;
  onLogout: () => void;
};

export function UserMenu({ user, onLogout }: UserMenuProps) {
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" px="1.5" gap="2" color="fg" title={m['header.accountMenu']()}>
          <Avatar.Root size="xs" variant="solid">
            <Avatar.Fallback name={user.username} />
          </Avatar.Root>
          <Text as="span" hideBelow="sm" maxW="40" truncate>
            {user.username}
          </Text>
          {user.isPayPartner && <PayPartnerTick hideBelow="sm" />}
          <ChevronDown size={16} aria-hidden />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="60">
            <Box px="2" py="2">
              <Text fontSize="sm" color="fg.muted">
                {m['header.greeting']()}
              </Text>
              <HStack gap="1.5">
                <Text fontWeight="semibold" truncate>
                  {user.username}
                </Text>
                {user.isPayPartner && <PayPartnerTick />}
              </HStack>
            </Box>
            <Menu.Separator />
            <Menu.Item value="news" asChild hideFrom="md">
              <a href={externalLinks.news} target="_blank" rel="noopener noreferrer">
                <Newspaper size={16} aria-hidden />
                {m['header.news']()}
              </a>
            </Menu.Item>
            <Menu.Item value="support" asChild hideFrom="md">
              <a href={externalLinks.support}>
                <LifeBuoy size={16} aria-hidden />
                {m['header.support']()}
              </a>
            </Menu.Item>
            <Menu.Item value="download" asChild>
              <a href={externalLinks.download}>
                <Download size={16} aria-hidden />
                {m['header.download']()}
              </a>
            </Menu.Item>
            <Menu.Item value="settings" asChild>
              <RouterLink to={paths.home}>
                <Settings size={16} aria-hidden />
                {m['header.settings']()}
              </RouterLink>
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item
              value="logout"
              color="fg.error"
              _highlighted={{ bg: 'bg.error', color: 'fg.error' }}
              onSelect={onLogout}
            >
              <LogOut size={16} aria-hidden />
              {m['header.logout']()}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
