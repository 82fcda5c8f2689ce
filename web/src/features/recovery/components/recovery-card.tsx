import { Link, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';

import { AuthCard } from '@/components/layouts/auth-card';
import { paths } from '@/config/paths';

export function RecoveryCard(props: { title: ReactNode; subtitle?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <AuthCard
      {...props}
      footer={
        <Text textAlign="center" fontSize="sm">
          <Link asChild color="brand.fg">
            <RouterLink to={paths.login}>{t('recovery.backToLogin')}</RouterLink>
          </Link>
        </Text>
      }
    />
  );
}
