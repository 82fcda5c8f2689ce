import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';

import { staffPaths } from '../config/paths';

export function StaffNotFound() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="6" py="16" textAlign="center">
      <Text fontSize="lg">{t('staff.app.notFound')}</Text>
      <Button asChild variant="outline">
        <RouterLink to={staffPaths.home}>{t('staff.app.backHome')}</RouterLink>
      </Button>
    </Stack>
  );
}
