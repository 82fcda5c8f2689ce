import { ChevronDown, LogOut } from 'lucide-react';
import { useState } from 'react';
import { matchPath, NavLink, useLocation } from 'react-router';
import { css } from 'styled-system/css';
import { Box, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Collapsible } from '@/components/ui/collapsible';
import { Link } from '@/components/ui/link';
import { m } from '@/paraglide/messages';

import { navItems } from './nav-items';

type SideNavProps = {
  onLogout: () => void;
  loggingOut?: boolean;
};

const itemStyle = css.raw({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  px: '3',
  py: '2.5',
  borderRadius: 'lg',
  fontWeight: 'medium',
  fontSize: 'sm',
  color: 'fg.muted',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'bg.muted', color: 'fg', textDecoration: 'none' },
});

function NavList({ onLogout, loggingOut, onNavigate }: SideNavProps & { onNavigate?: () => void }) {
  return (
    <Stack as="ul" gap="1" listStyleType="none" m="0" p="0">
      {navItems.map(({ key, label, to, end, icon: Icon }) => (
        <li key={key}>
          <Link asChild css={itemStyle} _currentPage={{ bg: 'brand.subtle', color: 'brand.fg' }}>
            <NavLink to={to} end={end} onClick={onNavigate}>
              <Icon size={18} aria-hidden />
              {label()}
            </NavLink>
          </Link>
        </li>
      ))}
      <li>
        <Button
          variant="plain"
          justifyContent="flex-start"
          h="auto"
          css={[itemStyle, { _hover: { bg: 'bg.muted', color: 'fg.error' } }]}
          loading={loggingOut}
          onClick={onLogout}
        >
          <LogOut size={18} aria-hidden />
          {m['nav.logout']()}
        </Button>
      </li>
    </Stack>
  );
}

/** The current section's title, for the collapsed phone navigation. */
function useCurrentSectionTitle() {
  const { pathname } = useLocation();
  const current = navItems.find(({ to, end }) => matchPath({ path: to, end: end ?? false }, pathname));
  return current ? current.label() : m['nav.label']();
}

/**
 * The side navigation: a column on tablets and desktops, a drop-down showing the current
 * section on phones.
 */
export function SideNav(props: SideNavProps) {
  const [open, setOpen] = useState(false);
  const currentTitle = useCurrentSectionTitle();

  return (
    <>
      <Box
        as="nav"
        aria-label={m['nav.label']()}
        hideBelow="md"
        _print={{ display: 'none' }}
        w="60"
        flexShrink={0}
        alignSelf="flex-start"
        position="sticky"
        top="20"
      >
        <NavList {...props} />
      </Box>

      <Box hideFrom="md" _print={{ display: 'none' }} data-testid="mobile-nav">
        <Collapsible.Root open={open} onOpenChange={(details) => setOpen(details.open)}>
          <Collapsible.Trigger asChild>
            <Button
              variant="outline"
              w="full"
              justifyContent="space-between"
              bg="bg.panel"
              // The outline variant's own hover and open colours: Panda's recipe layer yields to
              // `bg` above in every state, where Chakra's merged styles kept them.
              _hover={{ bg: 'colorPalette.subtle' }}
              _expanded={{ bg: 'colorPalette.subtle' }}
              title={m['nav.toggle']()}
            >
              {currentTitle}
              <Box
                as="span"
                display="inline-flex"
                transition="transform 0.2s"
                className={open ? css({ transform: 'rotate(180deg)' }) : undefined}
              >
                <ChevronDown size={18} aria-hidden />
              </Box>
            </Button>
          </Collapsible.Trigger>
          <Collapsible.Content>
            <Box
              as="nav"
              aria-label={m['nav.label']()}
              mt="2"
              p="2"
              bg="bg.panel"
              borderWidth="1px"
              borderColor="border"
              borderRadius="lg"
            >
              <NavList {...props} onNavigate={() => setOpen(false)} />
            </Box>
          </Collapsible.Content>
        </Collapsible.Root>
      </Box>
    </>
  );
}
