import { ChevronRight } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Box, Grid, Stack } from 'styled-system/jsx';
import { flex } from 'styled-system/patterns';

import { PageHeader } from '@/components/layouts/page-header';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import { useStaffMe } from '../api/get-staff-me';
import { sectionsFor, STAFF_ABILITY_TEXTS, STAFF_NAV_TEXTS } from '../config/nav-items';
import { roleLabel } from '../utils/roles';

/**
 * The console's home: a greeting, the member's role, and what that role can do: each section
 * the navigation shows them besides this page, with what it is for.
 */
export function HomeScreen() {
  const { data: me } = useStaffMe();
  if (!me) return null;
  const sections = sectionsFor(me.role);

  return (
    <>
      <PageHeader
        title={m['staff.home.greeting']({ username: me.username })}
        subtitle={m['staff.home.role']({ role: roleLabel(me.role) })}
      />
      {sections.length === 0 ? (
        <Text color="fg.muted">{m['staff.home.nothing']()}</Text>
      ) : (
        <Stack gap="3">
          <Text fontWeight="medium">{m['staff.home.abilities']()}</Text>
          <Grid as="ul" columns={{ base: 1, lg: 2 }} gap="3" listStyleType="none" m="0" p="0">
            {sections.map(({ key, to, icon: Icon }) => (
              <li key={key}>
                <RouterLink
                  to={to}
                  className={flex({
                    align: 'center',
                    gap: '4',
                    h: 'full',
                    p: { base: '4', md: '5' },
                    bg: 'bg.panel',
                    borderWidth: '1px',
                    borderColor: 'border',
                    borderRadius: 'xl',
                    shadow: 'sm',
                    transition: 'border-color 0.15s, background 0.15s',
                    _hover: { borderColor: 'brand.solid', textDecoration: 'none' },
                    focusRing: 'outside',
                  })}
                >
                  <Box
                    display="inline-flex"
                    p="2.5"
                    borderRadius="lg"
                    bg="brand.subtle"
                    color="brand.fg"
                    flexShrink={0}
                  >
                    <Icon size={22} aria-hidden />
                  </Box>
                  <Stack gap="1" flex="1" minW="0">
                    <Text fontWeight="semibold">{STAFF_NAV_TEXTS[key]()}</Text>
                    <Text fontSize="sm" color="fg.muted">
                      {STAFF_ABILITY_TEXTS[key]()}
                    </Text>
                  </Stack>
                  <ChevronRight size={18} aria-hidden />
                </RouterLink>
              </li>
            ))}
          </Grid>
        </Stack>
      )}
    </>
  );
}
