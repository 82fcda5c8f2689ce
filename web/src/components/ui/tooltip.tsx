import { Tooltip as ChakraTooltip, Portal } from '@chakra-ui/react';
import type { ReactElement, ReactNode } from 'react';

type TooltipProps = Omit<ChakraTooltip.RootProps, 'children'> & {
  /** The trigger: one element that takes a ref and props. Make it focusable for keyboard users. */
  children: ReactElement;
  content: ReactNode;
  showArrow?: boolean;
  contentProps?: ChakraTooltip.ContentProps;
};

/**
 * Chakra's tooltip snippet. It opens on hover and on keyboard focus of its trigger and closes
 * on Escape; touch does not open it.
 */
export function Tooltip({ children, content, showArrow = true, contentProps, ...rootProps }: TooltipProps) {
  return (
    <ChakraTooltip.Root {...rootProps}>
      <ChakraTooltip.Trigger asChild>{children}</ChakraTooltip.Trigger>
      <Portal>
        <ChakraTooltip.Positioner>
          <ChakraTooltip.Content {...contentProps}>
            {showArrow && (
              <ChakraTooltip.Arrow>
                <ChakraTooltip.ArrowTip />
              </ChakraTooltip.Arrow>
            )}
            {content}
          </ChakraTooltip.Content>
        </ChakraTooltip.Positioner>
      </Portal>
    </ChakraTooltip.Root>
  );
}
