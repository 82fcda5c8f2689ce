import type { ReactNode } from 'react';
import { Flex, Stack, type StackProps } from 'styled-system/jsx';

import { Heading, Text } from '@/components/ui/text';

type SectionHeaderProps = {
  title: ReactNode;
  description?: ReactNode;
  /** Beside the title, e.g. a status badge. */
  adornment?: ReactNode;
  /** For `aria-labelledby` of the section. */
  id?: string;
  /** The space below; none when the header is all the card holds. */
  mb?: StackProps['mb'];
};

/** The heading of one card of the security screen, with what the card is for below it. */
export function SectionHeader({ title, description, adornment, id, ...space }: SectionHeaderProps) {
  // A given `mb` passes on under its own name, so Panda reads its value where it is written;
  // the default is written here for the same reason.
  return (
    <Stack gap="1" mb="5" {...space}>
      <Flex align="center" gap="2" wrap="wrap">
        <Heading as="h2" size="md" id={id}>
          {title}
        </Heading>
        {adornment}
      </Flex>
      {description && (
        <Text fontSize="sm" color="fg.muted">
          {description}
        </Text>
      )}
    </Stack>
  );
}
