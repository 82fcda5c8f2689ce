import { createToaster } from '@ark-ui/react/toast';

/** Shows toasts: `toaster.error({ title })`. The <Toaster /> in the app provider renders them. */
export const toaster = createToaster({
  placement: 'top-end',
  pauseOnPageIdle: true,
});
