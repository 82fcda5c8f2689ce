import type { ReactNode } from 'react';
import { Box, Stack } from 'styled-system/jsx';

import { Heading, Text } from '@/components/ui/text';

type AuthCardProps = {
  title: ReactNode;
  subtitle?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
};

/** The centred card that the public sign-in, sign-up and recovery screens sit in. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <Box
      maxW="md"
      mx="auto"
      bg="bg.panel"
      borderWidth="1px"
      borderColor="border"
      borderRadius="2xl"
      shadow="lg"
      p={{ base: '6', md: '8' }}
    >
      <Stack gap="1" mb="6">
        <Heading as="h1" size="2xl" letterSpacing="tight">
          {title}
        </Heading>
        {subtitle && <Text color="fg.muted">{subtitle}</Text>}
      </Stack>
      {children}
      {footer && <Box mt="6">{footer}</Box>}
    </Box>
  );
}
