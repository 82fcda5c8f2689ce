import { Portal } from '@ark-ui/react/portal';
import { Toast as ArkToast, Toaster as ArkToaster } from '@ark-ui/react/toast';
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react';
import { createStyleContext, Stack, styled } from 'styled-system/jsx';
import { toast as toastRecipe } from 'styled-system/recipes';

import { Spinner } from './spinner';
import { toaster } from './toaster-store';

const { withProvider, withContext } = createStyleContext(toastRecipe);

const Root = withProvider(ArkToast.Root, 'root');
const Title = withContext(ArkToast.Title, 'title');
const Description = withContext(ArkToast.Description, 'description');
const CloseTrigger = withContext(ArkToast.CloseTrigger, 'closeTrigger');
const Indicator = withContext(styled('span'), 'indicator');
const StyledToaster = styled(ArkToaster);

const ICONS = { success: CircleCheck, error: CircleAlert, warning: TriangleAlert, info: Info } as const;

/** Where the toasts raised through `toaster` show (Chakra's toast recipe on Ark's Toast). */
export function Toaster() {
  return (
    <Portal>
      <StyledToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => {
          const Icon = ICONS[toast.type as keyof typeof ICONS] ?? Info;
          return (
            <Root width={{ md: 'sm' }}>
              {toast.type === 'loading' ? (
                <Spinner size="sm" color="brand.solid" />
              ) : (
                <Indicator>
                  <Icon />
                </Indicator>
              )}
              <Stack gap="1" flex="1" maxWidth="100%">
                {toast.title && <Title>{toast.title}</Title>}
                {toast.description && <Description>{toast.description}</Description>}
              </Stack>
              {toast.closable && (
                <CloseTrigger>
                  <X />
                </CloseTrigger>
              )}
            </Root>
          );
        }}
      </StyledToaster>
    </Portal>
  );
}
