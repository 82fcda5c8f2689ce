import { Portal } from '@ark-ui/react/portal';
import { Tooltip as ArkTooltip } from '@ark-ui/react/tooltip';
import type { ComponentProps, ReactElement, ReactNode } from 'react';
import { createStyleContext } from 'styled-system/jsx';
import { tooltip } from 'styled-system/recipes';

const { withRootProvider, withContext } = createStyleContext(tooltip);

const Root = withRootProvider(ArkTooltip.Root);
const Positioner = withContext(ArkTooltip.Positioner, 'positioner');
const Content = withContext(ArkTooltip.Content, 'content');
const Arrow = withContext(ArkTooltip.Arrow, 'arrow');
const ArrowTip = withContext(ArkTooltip.ArrowTip, 'arrowTip');

type TooltipProps = Omit<ComponentProps<typeof Root>, 'children'> & {
  /** The trigger: one element that takes a ref and props. Make it focusable for keyboard users. */
  children: ReactElement;
  content: ReactNode;
  showArrow?: boolean;
  contentProps?: ComponentProps<typeof Content>;
};

/**
 * A tooltip (Chakra's recipe on Ark's Tooltip). It opens on hover and on keyboard focus of its
 * trigger and closes on Escape; touch does not open it.
 */
export function Tooltip({ children, content, showArrow = true, contentProps, ...rootProps }: TooltipProps) {
  return (
    <Root {...rootProps}>
      <ArkTooltip.Trigger asChild>{children}</ArkTooltip.Trigger>
      <Portal>
        <Positioner>
          <Content {...contentProps}>
            {showArrow && (
              <Arrow>
                <ArrowTip />
              </Arrow>
            )}
            {content}
          </Content>
        </Positioner>
      </Portal>
    </Root>
  );
}
