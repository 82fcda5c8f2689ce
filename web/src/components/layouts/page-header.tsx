import { Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function PageHeader({ title, subtitle }: { title: ReactNode; subtitle?: ReactNode }) {
  return (
    <Stack gap="1" mb="6">
      <Heading as="h1" size="2xl" letterSpacing="tight">
        {title}
      </Heading>
      {subtitle && <Text color="fg.muted">{subtitle}</Text>}
    </Stack>
  );
}
