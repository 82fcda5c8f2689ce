import { Outlet, useNavigation } from 'react-router';

import { PageFallback } from '@/components/feedback/page-fallback';

/**
 * A layout's content: the matched page, or the page fallback while the router loads the code of
 * the page being opened (a lazy route seen for the first time), so a slow connection shows that
 * something is on its way instead of the old page standing still.
 */
export function RouteOutlet() {
  const navigation = useNavigation();
  return navigation.state === 'loading' ? <PageFallback /> : <Outlet />;
}
