import { Portal } from '@ark-ui/react/portal';
import { Toast as ArkToast, Toaster as ArkToaster } from '@ark-ui/react/toast';
import { createStyleContext, Stack, styled } from 'styled-system/jsx';
import { toast as toastRecipe } from 'styled-system/recipes';

import { CheckCircleIcon, CloseIcon, WarningIcon } from './icons';
import { Spinner } from './spinner';
import { toaster } from './toaster-store';

const { withProvider, withContext } = createStyleContext(toastRecipe);

const Root = withProvider(ArkToast.Root, 'root');
const Title = withContext(ArkToast.Title, 'title');
const Description = withContext(ArkToast.Description, 'description');
const CloseTrigger = withContext(ArkToast.CloseTrigger, 'closeTrigger');
const StyledToaster = styled(ArkToaster);

const ICONS = {
  success: withContext(styled(CheckCircleIcon), 'indicator'),
  error: withContext(styled(WarningIcon), 'indicator'),
  warning: withContext(styled(WarningIcon), 'indicator'),
};

/** Where the toasts raised through `toaster` show (Chakra's toast recipe on Ark's Toast). */
export function Toaster() {
  return (
    <Portal>
      <StyledToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => {
          // As Chakra's: an icon for success, warning and error, none for info.
          const Indicator = ICONS[toast.type as keyof typeof ICONS];
          return (
            <Root width={{ md: 'sm' }}>
              {toast.type === 'loading' ? (
                <Spinner size="sm" color="brand.solid" />
              ) : (
                Indicator && <Indicator />
              )}
              <Stack gap="1" flex="1" maxWidth="100%">
                {toast.title && <Title>{toast.title}</Title>}
                {toast.description && <Description>{toast.description}</Description>}
              </Stack>
              {toast.closable && (
                <CloseTrigger>
                  <CloseIcon />
                </CloseTrigger>
              )}
            </Root>
          );
        }}
      </StyledToaster>
    </Portal>
  );
}
