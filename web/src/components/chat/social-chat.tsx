import { lazy, Suspense } from 'react';
import { ErrorBoundary } from 'react-error-boundary';

import { env } from '@/config/env';
import { usePageIdle } from '@/hooks/use-page-idle';

/** Its own chunk, asked for only when the widget is configured and the page is idle. */
const MessengerChat = lazy(() => import('./messenger-chat').then(({ MessengerChat }) => ({ default: MessengerChat })));

/**
 * The signed-in shell's social chat widget (spec section 2): the Messenger chat of the
 * provider's social page (`VITE_MESSENGER_PAGE_ID`). It waits until the page has loaded and the
 * browser is idle, so neither its code nor the vendor's script competes with the page; without a
 * page id it renders nothing and loads nothing.
 */
export function SocialChat({ pageId = env.MESSENGER_PAGE_ID }: { pageId?: string }) {
  const idle = usePageIdle(!!pageId);
  if (!pageId || !idle) return null;
  // A chunk that fails to load (offline for a moment) costs the chat, not the page.
  return (
    <ErrorBoundary fallback={null}>
      <Suspense fallback={null}>
        <MessengerChat pageId={pageId} />
      </Suspense>
    </ErrorBoundary>
  );
}
