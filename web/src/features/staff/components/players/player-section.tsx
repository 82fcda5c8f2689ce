import { useId, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Box, Flex, styled } from 'styled-system/jsx';

import { ContentCard } from '@/components/layouts/content-card';
import { Heading, Text } from '@/components/ui/text';

type PlayerSectionProps = {
  title: string;
  /** Buttons or links beside the title. */
  actions?: ReactNode;
  children: ReactNode;
};

/** One part of a player's page: a panel headed by its title, a region named by it. */
export function PlayerSection({ title, actions, children }: PlayerSectionProps) {
  const headingId = useId();
  return (
    <ContentCard as="section" aria-labelledby={headingId} p={{ base: '4', md: '6' }} minW="0">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap" mb="4">
        <Heading as="h2" size="lg" id={headingId}>
          {title}
        </Heading>
        {actions}
      </Flex>
      {children}
    </ContentCard>
  );
}

/** Label and value pairs: two columns from a small tablet up, stacked on a phone. */
export function Facts({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <Box
      as="dl"
      aria-label={label}
      display="grid"
      gridTemplateColumns={{ base: 'minmax(0, 1fr)', sm: 'minmax(9rem, max-content) minmax(0, 1fr)' }}
      columnGap="6"
      rowGap={{ base: '0', sm: '2' }}
      fontSize="sm"
    >
      {children}
    </Box>
  );
}

const monoValue = css({ fontFamily: 'mono', fontSize: 'xs' });

export function Fact({ label, children, mono = false }: { label: string; children: ReactNode; mono?: boolean }) {
  return (
    <>
      <Text as="dt" color="fg.muted" mt={{ base: '2', sm: '0' }}>
        {label}
      </Text>
      <styled.dd m="0" minW="0" overflowWrap="anywhere" className={mono ? monoValue : undefined}>
        {children}
      </styled.dd>
    </>
  );
}

/** A section's placeholder when it has nothing to show. */
export function Nothing({ children }: { children: ReactNode }) {
  return <Text color="fg.muted">{children}</Text>;
}
