import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';

import { AuthCard } from '@/components/layouts/auth-card';
import { Link } from '@/components/ui/link';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { fromLocation } from '@/lib/auth';

import { RegisterForm } from './register-form';

export function RegisterScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <AuthCard
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={
        <Text textAlign="center" fontSize="sm" color="fg.muted">
          {t('auth.register.hasAccount')}{' '}
          <Link asChild color="brand.fg" fontWeight="semibold">
            <RouterLink
              to={{ pathname: paths.login, search: location.search }}
              state={{ from: fromLocation(location.state) }}
            >
              {t('auth.register.login')}
            </RouterLink>
          </Link>
        </Text>
      }
    >
      <RegisterForm />
    </AuthCard>
  );
}
