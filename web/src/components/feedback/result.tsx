import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Box, Stack } from 'styled-system/jsx';

import { Heading } from '@/components/ui/text';

type ResultProps = {
  icon: LucideIcon;
  /** The colour palette of the icon's badge. */
  tone: 'green' | 'orange' | 'red';
  title: ReactNode;
  children?: ReactNode;
};

/** Each tone's colour palette, for the badge's `colorPalette.subtle` and `colorPalette.fg`. */
const PALETTE: Record<ResultProps['tone'], string> = {
  green: css({ colorPalette: 'green' }),
  orange: css({ colorPalette: 'orange' }),
  red: css({ colorPalette: 'red' }),
};

/** The outcome of following a mailed link: an icon, a heading, then what to do next. */
export function Result({ icon: Icon, tone, title, children }: ResultProps) {
  return (
    <Stack align="center" gap="4" textAlign="center" py={{ base: '2', md: '4' }}>
      <Box display="inline-flex" p="3.5" borderRadius="full" className={PALETTE[tone]} bg="colorPalette.subtle" color="colorPalette.fg">
        <Icon size={32} aria-hidden />
      </Box>
      <Heading as="h2" size="xl">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}
