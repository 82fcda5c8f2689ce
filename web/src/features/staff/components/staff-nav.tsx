import { ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { matchPath, NavLink, useLocation } from 'react-router';
import { Box, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { m } from '@/paraglide/messages';

import { STAFF_NAV_TEXTS, type StaffNavItem } from '../config/nav-items';

type StaffNavProps = { items: readonly StaffNavItem[] };

function NavList({ items, onNavigate }: StaffNavProps & { onNavigate?: () => void }) {
  return (
    <Stack as="ul" gap="1" listStyleType="none" m="0" p="0">
      {items.map(({ key, to, end, icon: Icon }) => (
        <li key={key}>
          <Link
            asChild
            display="flex"
            alignItems="center"
            gap="3"
            w="full"
            px="3"
            py="2.5"
            borderRadius="lg"
            fontWeight="medium"
            fontSize="sm"
            color="fg.muted"
            transition="background 0.15s, color 0.15s"
            _hover={{ bg: 'bg.muted', color: 'fg', textDecoration: 'none' }}
            _currentPage={{ bg: 'brand.subtle', color: 'brand.fg' }}
          >
            <NavLink to={to} end={end} onClick={onNavigate}>
              <Icon size={18} aria-hidden />
              {STAFF_NAV_TEXTS[key]()}
            </NavLink>
          </Link>
        </li>
      ))}
    </Stack>
  );
}

/**
 * The console's navigation, as the player's side navigation: a column on tablets and desktops,
 * a drop-down showing the current section on phones (a plain toggle: Chakra's Collapsible here
 * would split its styles out of the chunk the player's pages share). It lists the sections the
 * member's role is shown (config/nav-items.ts).
 */
export function StaffNav({ items }: StaffNavProps) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const current = items.find(({ to, end }) => matchPath({ path: to, end: end ?? false }, pathname));

  return (
    <>
      <Box
        as="nav"
        aria-label={m['staff.nav.label']()}
        hideBelow="md"
        w="56"
        flexShrink={0}
        alignSelf="flex-start"
        position="sticky"
        top="20"
      >
        <NavList items={items} />
      </Box>

      <Box hideFrom="md" data-testid="staff-mobile-nav">
        <Button
          variant="outline"
          w="full"
          justifyContent="space-between"
          bg="bg.panel"
          title={m['staff.nav.toggle']()}
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((was) => !was)}
        >
          {current ? STAFF_NAV_TEXTS[current.key]() : m['staff.nav.label']()}
          <Box
            as="span"
            display="inline-flex"
            transition="transform 0.2s"
            data-state={open ? 'open' : 'closed'}
            _open={{ transform: 'rotate(180deg)' }}
          >
            <ChevronDown size={18} aria-hidden />
          </Box>
        </Button>
        {open && (
          <Box
            as="nav"
            id={listId}
            aria-label={m['staff.nav.label']()}
            mt="2"
            p="2"
            bg="bg.panel"
            borderWidth="1px"
            borderColor="border"
            borderRadius="lg"
          >
            <NavList items={items} onNavigate={() => setOpen(false)} />
          </Box>
        )}
      </Box>
    </>
  );
}
