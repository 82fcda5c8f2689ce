import { Stack } from 'styled-system/jsx';

import { Heading, Text } from '@/components/ui/text';

/** The chosen method's heading and what to do, under the top-up page's own heading. */
export function MethodHeader({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <Stack gap="1" mb="5">
      <Heading as="h2" size="lg">
        {title}
      </Heading>
      <Text color="fg.muted" fontSize="sm">
        {subtitle}
      </Text>
    </Stack>
  );
}
