import { Link as RouterLink } from 'react-router';
import { hstack } from 'styled-system/patterns';

import { LogoMark } from '@/components/logo';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import { staffPaths } from '../config/paths';

/** The product's mark and name with 'Bảng điều khiển nhân viên' (from `md` up), linking to the console's home. */
export function ConsoleBrand() {
  return (
    <RouterLink
      to={staffPaths.home}
      aria-label={m['staff.app.homeLink']()}
      className={hstack({ gap: '2.5', flexShrink: 0, _hover: { textDecoration: 'none', opacity: 0.9 } })}
    >
      <LogoMark />
      <Text as="span" fontSize="xl" fontWeight="extrabold" letterSpacing="tight">
        {m['app.name']()}
      </Text>
      <Text
        as="span"
        hideBelow="md"
        fontSize="sm"
        color="fg.muted"
        ps="2.5"
        borderStartWidth="1px"
        borderColor="border"
      >
        {m['staff.app.console']()}
      </Text>
    </RouterLink>
  );
}
