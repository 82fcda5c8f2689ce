import { Link as RouterLink } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import { staffPaths } from '../config/paths';

export function StaffNotFound() {
  return (
    <Stack align="center" gap="6" py="16" textAlign="center">
      <Text fontSize="lg">{m['staff.app.notFound']()}</Text>
      <Button asChild variant="outline">
        <RouterLink to={staffPaths.home}>{m['staff.app.backHome']()}</RouterLink>
      </Button>
    </Stack>
  );
}
