import { Link as RouterLink } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Heading, Text } from '@/components/ui/text';

type MissingItemProps = {
  title: string;
  hint: string;
  /** Where to go instead: the list the item would have been in. */
  back: { label: string; to: string };
};

/** A page's item that does not exist (or is not the reader's): what happened and the way back. */
export function MissingItem({ title, hint, back }: MissingItemProps) {
  return (
    <Stack align="center" gap="3" py="8" textAlign="center">
      <Heading as="h2" size="lg">
        {title}
      </Heading>
      <Text color="fg.muted">{hint}</Text>
      <Button asChild variant="outline" mt="3">
        <RouterLink to={back.to}>{back.label}</RouterLink>
      </Button>
    </Stack>
  );
}
