import { Link, Text } from '@chakra-ui/react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';

import { paths } from '@/config/paths';

import { AuthCard } from '@/components/layouts/auth-card';

export function RegisterScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <AuthCard title={t('auth.register.title')}>
      <Text textAlign="center" fontSize="sm" color="fg.muted">
        {t('auth.register.hasAccount')}{' '}
        <Link asChild color="brand.fg" fontWeight="semibold">
          <RouterLink to={{ pathname: paths.login, search: location.search }}>{t('auth.register.login')}</RouterLink>
        </Link>
      </Text>
    </AuthCard>
  );
}
