import { Wallet } from 'lucide-react';
import { Link as RouterLink } from 'react-router';

import { Link } from '@/components/ui/link';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { formatNumber } from '@/lib/format';
import { m } from '@/paraglide/messages';

/** The KP balance in the header, always in view; it leads to the top-up area. */
export function HeaderBalance({ credit }: { credit: number }) {
  const label = m['balance.credit']({ credit: formatNumber(credit) });
  return (
    <Link
      asChild
      data-testid="header-balance"
      aria-label={label}
      title={label}
      display="inline-flex"
      alignItems="center"
      gap="1.5"
      px="2.5"
      py="1.5"
      borderRadius="full"
      borderWidth="1px"
      borderColor="border"
      bg="bg.panel"
      fontSize="sm"
      fontWeight="semibold"
      color="fg"
      _hover={{ textDecoration: 'none', borderColor: 'brand.solid' }}
    >
      <RouterLink to={paths.payment}>
        <Wallet size={16} aria-hidden color="var(--colors-brand-fg)" />
        <Text as="span" fontVariantNumeric="tabular-nums">
          {m['balance.short']({ credit: formatNumber(credit) })}
        </Text>
      </RouterLink>
    </Link>
  );
}
