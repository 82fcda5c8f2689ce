import { Link as RouterLink, useLocation } from 'react-router';

import { AuthCard } from '@/components/layouts/auth-card';
import { Link } from '@/components/ui/link';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { fromLocation } from '@/lib/auth';
import { m } from '@/paraglide/messages';

import { RegisterForm } from './register-form';

export function RegisterScreen() {
  const location = useLocation();
  return (
    <AuthCard
      title={m['auth.register.title']()}
      subtitle={m['auth.register.subtitle']()}
      footer={
        <Text textAlign="center" fontSize="sm" color="fg.muted">
          {m['auth.register.hasAccount']()}{' '}
          <Link asChild color="brand.fg" fontWeight="semibold">
            <RouterLink
              to={{ pathname: paths.login, search: location.search }}
              state={{ from: fromLocation(location.state) }}
            >
              {m['auth.register.login']()}
            </RouterLink>
          </Link>
        </Text>
      }
    >
      <RegisterForm />
    </AuthCard>
  );
}
