import { useEffect } from 'react';

import { mountMessengerChat } from './mount-messenger-chat';

/** The Messenger chat bubble of the page `pageId`; renders nothing of its own. */
export function MessengerChat({ pageId }: { pageId: string }) {
  useEffect(() => mountMessengerChat(pageId), [pageId]);
  return null;
}
