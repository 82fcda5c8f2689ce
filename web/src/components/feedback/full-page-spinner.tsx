import { Center } from 'styled-system/jsx';

import { Spinner } from '@/components/ui/spinner';

/** Shown while the locale texts load, so it carries no text of its own. */
export function FullPageSpinner() {
  return (
    <Center minH="100dvh">
      <Spinner size="lg" color="brand.solid" />
    </Center>
  );
}
