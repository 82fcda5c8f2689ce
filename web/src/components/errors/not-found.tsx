import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Heading, Text } from '@/components/ui/text';
import { paths } from '@/config/paths';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="6" py="16" textAlign="center">
      <Heading as="p" size="6xl" color="brand.fg" aria-hidden>
        {404}
      </Heading>
      <Text fontSize="lg">{t('errors.notFound')}</Text>
      <Button asChild variant="outline">
        <RouterLink to={paths.home}>{t('errors.backHome')}</RouterLink>
      </Button>
    </Stack>
  );
}
