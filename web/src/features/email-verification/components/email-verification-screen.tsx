import { CircleCheckBig } from 'lucide-react';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { HStack } from 'styled-system/jsx';

import { BrokenLink } from '@/components/feedback/broken-link';
import { Result } from '@/components/feedback/result';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Link } from '@/components/ui/link';
import { Separator } from '@/components/ui/separator';
import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

import { useEmailVerification } from '../api/verify-email';

function Verified() {
  return (
    <Result icon={CircleCheckBig} tone="green" title={m['emailVerification.success.title']()}>
      <Text>{m['emailVerification.success.text']()}</Text>
      <Link asChild color="brand.fg" fontWeight="semibold">
        <RouterLink to={paths.login}>{m['emailVerification.success.login']()}</RouterLink>
      </Link>
      <Text fontSize="sm" color="fg.muted">
        {m['emailVerification.success.note']()}
      </Text>
    </Result>
  );
}

/** Checks the mailed link's token once, then shows that the address is verified or the link is broken. */
function Verification({ token }: { token: string }) {
  const verification = useEmailVerification(token);

  if (verification.isPending) {
    return (
      <HStack gap="3" justify="center" py="6" color="fg.muted" role="status">
        <Spinner size="sm" />
        <Text>{m['emailVerification.checking']()}</Text>
      </HStack>
    );
  }
  return verification.isSuccess ? <Verified /> : <BrokenLink />;
}

/** /email-verification/:token, the link of the verification mail (spec section 2). */
export function EmailVerificationScreen() {
  const { token } = useParams();
  if (!token) return <Navigate to={paths.login} replace />;

  return (
    <ContentCard maxW="xl" mx="auto">
      <PageHeader title={m['emailVerification.title']()} subtitle={m['emailVerification.description']()} />
      <Separator mb="6" />
      <Verification token={token} />
    </ContentCard>
  );
}
