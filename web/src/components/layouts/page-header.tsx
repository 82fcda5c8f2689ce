import type { ReactNode } from 'react';
import { Flex, Stack } from 'styled-system/jsx';

import { Heading, Text } from '@/components/ui/text';

type PageHeaderProps = {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Beside the title (below it when there is no room), e.g. a badge; not part of the heading. */
  adornment?: ReactNode;
};

export function PageHeader({ title, subtitle, adornment }: PageHeaderProps) {
  return (
    <Stack gap="1" mb="6">
      <Flex align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="2xl" letterSpacing="tight">
          {title}
        </Heading>
        {adornment}
      </Flex>
      {subtitle && <Text color="fg.muted">{subtitle}</Text>}
    </Stack>
  );
}
