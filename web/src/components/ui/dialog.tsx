import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { createStyleContext, styled } from 'styled-system/jsx';
import { dialog } from 'styled-system/recipes';

const { withRootProvider, withContext } = createStyleContext(dialog);

/**
 * A modal (Chakra's dialog recipe on Ark's Dialog): focus moves in and stays there, Escape and a
 * click outside close it unless told otherwise. `placement`, `size` and `motionPreset` come from
 * the recipe. Its parts go in a `Portal`.
 */
export const Dialog = {
  // As Chakra's: the content mounts when first opened and unmounts once closed.
  Root: withRootProvider(ArkDialog.Root, { defaultProps: { lazyMount: true, unmountOnExit: true } }),
  Trigger: withContext(ArkDialog.Trigger, 'trigger'),
  Backdrop: withContext(ArkDialog.Backdrop, 'backdrop'),
  Positioner: withContext(ArkDialog.Positioner, 'positioner'),
  Content: withContext(ArkDialog.Content, 'content'),
  Header: withContext(styled('div'), 'header'),
  Title: withContext(ArkDialog.Title, 'title'),
  Description: withContext(ArkDialog.Description, 'description'),
  Body: withContext(styled('div'), 'body'),
  Footer: withContext(styled('div'), 'footer'),
  CloseTrigger: withContext(ArkDialog.CloseTrigger, 'closeTrigger'),
  /** Closes the dialog, unstyled: wrap a button in it with `asChild` ('Hủy', say). */
  ActionTrigger: ArkDialog.CloseTrigger,
  Context: ArkDialog.Context,
};

export { Portal };
