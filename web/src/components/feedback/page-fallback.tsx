import { css } from 'styled-system/css';
import { Flex } from 'styled-system/jsx';

import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';
import { useLoadingSlow } from '@/hooks/use-loading-slow';
import { m } from '@/paraglide/messages';

/**
 * 'Đang tải dữ liệu...' (spec section 2), while a page's code or the first load of the user is
 * on its way, and below it, once that has taken longer than the spec's loading-slow time, a
 * hint that the connection is slow. `fullPage` fills the window (no layout around it yet);
 * otherwise it fills the content area of a layout. index.html shows the same before the app runs.
 */
export function PageFallback({ fullPage = false }: { fullPage?: boolean }) {
  const slow = useLoadingSlow();
  return (
    <Flex
      role="status"
      data-testid="page-fallback"
      direction="column"
      align="center"
      justify="center"
      gap="3"
      className={fullPage ? css({ minH: '100dvh' }) : css({ minH: '60' })}
      px="4"
      textAlign="center"
    >
      <Spinner size="lg" color="brand.solid" />
      <Text color="fg.muted">{m['app.pageLoading']()}</Text>
      {slow && (
        <Text fontSize="sm" color="fg.warning">
          {m['app.slowConnection']()}
        </Text>
      )}
    </Flex>
  );
}
