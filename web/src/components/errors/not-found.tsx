import { Link as RouterLink } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Heading, Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

export function NotFound() {
  return (
    <Stack align="center" gap="6" py="16" textAlign="center">
      <Heading as="p" size="6xl" color="brand.fg" aria-hidden>
        {404}
      </Heading>
      <Text fontSize="lg">{m['errors.notFound']()}</Text>
      <Button asChild variant="outline">
        <RouterLink to={paths.home}>{m['errors.backHome']()}</RouterLink>
      </Button>
    </Stack>
  );
}
