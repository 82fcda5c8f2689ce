import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

import { AuthCard } from '@/components/layouts/auth-card';
import { Link } from '@/components/ui/link';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

type RecoveryCardProps = {
  title: ReactNode;
  subtitle?: ReactNode;
  children?: ReactNode;
  /** The footer's way back to /login; left out where the content leads there itself. */
  backToLogin?: boolean;
};

export function RecoveryCard({ backToLogin = true, ...props }: RecoveryCardProps) {
  return (
    <AuthCard
      {...props}
      footer={
        backToLogin && (
          <Text textAlign="center" fontSize="sm">
            <Link asChild color="brand.fg">
              <RouterLink to={paths.login}>{m['recovery.backToLogin']()}</RouterLink>
            </Link>
          </Text>
        )
      }
    />
  );
}
