import { BadgeCheck } from 'lucide-react';
import { Box, type BoxProps } from 'styled-system/jsx';

import { m } from '@/paraglide/messages';

type PayPartnerTickProps = Omit<BoxProps, 'children'> & { size?: number };

/** The verified tick shown next to a pay partner's account name (spec section 6). */
export function PayPartnerTick({ size = 16, ...props }: PayPartnerTickProps) {
  const label = m['account.payPartner']();
  return (
    <Box
      as="span"
      role="img"
      aria-label={label}
      title={label}
      display="inline-flex"
      flexShrink={0}
      color="blue.solid"
      _dark={{ color: 'blue.400' }}
      {...props}
    >
      <BadgeCheck size={size} aria-hidden />
    </Box>
  );
}
