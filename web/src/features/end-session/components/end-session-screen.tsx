import { CircleCheckBig, Info, LogOut, Unlink } from 'lucide-react';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { Result } from '@/components/feedback/result';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Separator } from '@/components/ui/separator';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { toApiError } from '@/lib/api-client';
import { m } from '@/paraglide/messages';

import { useEndSession } from '../api/end-session';

/** What to do next when the sign-in may not have been the player's: a new password, then two-factor. */
function Advice() {
  return (
    <>
      <Text color="fg.muted">{m['endSession.advice']()}</Text>
      <Stack direction={{ base: 'column', sm: 'row' }} gap="3" mt="2" w={{ base: 'full', sm: 'auto' }}>
        <Button asChild>
          <RouterLink to={paths.forgotPassword}>{m['endSession.resetPassword']()}</RouterLink>
        </Button>
        <Button asChild variant="outline">
          <RouterLink to={paths.security}>{m['endSession.enableTwoFactor']()}</RouterLink>
        </Button>
      </Stack>
    </>
  );
}

/** The session is signed out now, or (`ended` false) had ended before the link was used. */
function Ended({ ended }: { ended: boolean }) {
  return ended ? (
    <Result icon={CircleCheckBig} tone="green" title={m['endSession.ended.title']()}>
      <Text>{m['endSession.ended.text']()}</Text>
      <Advice />
    </Result>
  ) : (
    <Result icon={Info} tone="orange" title={m['endSession.alreadyEnded.title']()}>
      <Text>{m['endSession.alreadyEnded.text']()}</Text>
      <Advice />
    </Result>
  );
}

/** The link is unknown, used or expired: the server's message says what to do instead. */
function InvalidLink({ message }: { message: string }) {
  return (
    <Result icon={Unlink} tone="red" title={m['endSession.invalid.title']()}>
      <Text color="fg.muted">{message}</Text>
      <Button asChild mt="2">
        <RouterLink to={paths.security}>{m['endSession.invalid.action']()}</RouterLink>
      </Button>
    </Result>
  );
}

/**
 * Says what the link does and signs the session out only when the button is pressed: mail
 * scanners open links, so nothing is sent on page load. A failure other than the link's own
 * (no connection, a server error) leaves the button to try again.
 */
function EndSession({ token }: { token: string }) {
  const end = useEndSession();

  if (end.isSuccess) return <Ended ended={end.data.ended} />;
  const failure = end.error ? toApiError(end.error) : null;
  const invalid = failure?.status === 422 ? failure.fieldError('token') : undefined;
  if (invalid) return <InvalidLink message={invalid} />;

  return (
    <Stack gap="5" align={{ base: 'stretch', sm: 'flex-start' }}>
      {failure && <FailureAlert title={m['endSession.failed']()} text={failure.message} />}
      <Text>{m['endSession.text']()}</Text>
      <Button colorPalette="red" size="lg" loading={end.isPending} onClick={() => end.mutate(token)}>
        <LogOut aria-hidden />
        {m['endSession.submit']()}
      </Button>
    </Stack>
  );
}

/** /end-session/:token, the link of the mail 'Đăng nhập Kid từ một thiết bị mới'; without a token, /login. */
export function EndSessionScreen() {
  const { token } = useParams();
  if (!token) return <Navigate to={paths.login} replace />;

  return (
    <ContentCard maxW="xl" mx="auto">
      <PageHeader title={m['endSession.title']()} subtitle={m['endSession.description']()} />
      <Separator mb="6" />
      {/* A new token is a new link: nothing of the previous one's outcome carries over. */}
      <EndSession key={token} token={token} />
    </ContentCard>
  );
}
