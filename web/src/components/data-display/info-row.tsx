import type { ReactNode } from 'react';
import { Box, Flex } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

type InfoRowProps = {
  label: ReactNode;
  /** The value; null or empty shows 'Chưa cập nhật'. */
  value: ReactNode;
  /** Beside the value, e.g. a status badge. */
  adornment?: ReactNode;
  /** At the row's right end, e.g. the button that opens the row's edit modal. */
  action?: ReactNode;
};

/**
 * One labelled fact of the profile: the label in its own column on wide screens and above the
 * value on phones, the value, and room at the right end for an action.
 */
export function InfoRow({ label, value, adornment, action }: InfoRowProps) {
  const empty = value === null || value === undefined || value === '';
  return (
    <Flex
      direction={{ base: 'column', sm: 'row' }}
      align={{ base: 'stretch', sm: 'center' }}
      gap={{ base: '1', sm: '4' }}
      py="4"
      borderBottomWidth="1px"
      _first={{ pt: '0' }}
      _last={{ pb: '0', borderBottomWidth: '0' }}
    >
      <Box as="dt" w={{ sm: '40' }} flexShrink={0} fontSize="sm" color="fg.muted">
        {label}
      </Box>
      <Flex as="dd" flex="1" minW="0" align="center" justify="space-between" gap="3">
        <Flex align="center" gap="2" wrap="wrap" minW="0">
          <Text
            as="span"
            fontWeight={empty ? 'normal' : 'medium'}
            color={empty ? 'fg.subtle' : undefined}
            overflowWrap="anywhere"
          >
            {empty ? m['profile.notSet']() : value}
          </Text>
          {adornment}
        </Flex>
        {action}
      </Flex>
    </Flex>
  );
}

export function VerifiedBadge({ verified }: { verified: boolean }) {
  return (
    <Badge colorPalette={verified ? 'green' : 'orange'} variant="subtle" size="sm">
      {verified ? m['profile.emailVerified']() : m['profile.emailUnverified']()}
    </Badge>
  );
}
